/**
 * Samples of the application forms, the applicants' submissions and the review decisions' writes
 * (src/features/applications/forms/repository.ts, intake/repository.ts and repository.ts), written to
 * `sql/application-forms.*.sql`, `sql/application-intake.*.sql` and `sql/applications.*.sql`.
 */
import * as applications from '../../src/features/applications/repository.ts';
import * as forms from '../../src/features/applications/forms/repository.ts';
import * as intake from '../../src/features/applications/intake/repository.ts';
import { NOW, RESULT, STAFF, WORKSPACE } from './sql-sample-values.ts';
import type { SnapshotModule } from './sql-samples.ts';

const APPLICANT_ON_FORM = { formId: 'form-1', environment: 'live', gameUserId: '2001' };

export const formsSnapshots: SnapshotModule = {
  file: 'application-forms',
  samples: [
    { name: 'listForms', run: (db) => forms.listForms(db, WORKSPACE) },
    { name: 'findForm', run: (db) => forms.findForm(db, WORKSPACE, 'form-1') },
  ],
};

export const intakeSnapshots: SnapshotModule = {
  file: 'application-intake',
  samples: [
    { name: 'findPendingSubmission', run: (db) => intake.findPendingSubmission(db, APPLICANT_ON_FORM) },
    { name: 'lastRejectionAt', run: (db) => intake.lastRejectionAt(db, APPLICANT_ON_FORM) },
    {
      name: 'insertSubmissionUnlessPending',
      run: (db) =>
        intake.insertSubmissionUnlessPending(db, {
          id: 'submission-1',
          workspace_id: WORKSPACE,
          status: 'submitted',
          score: null,
          reviewer_notes: null,
          applicant: '{"gameUserId":"2001","gameUsername":null,"displayName":null,"chatUserId":null}',
          answers: '[]',
          created_at: NOW,
          reviewed_at: null,
          accepted_at: null,
          rejected_at: null,
          staff_profile_id: null,
          updated_at: NOW,
          form_id: 'form-1',
          environment: 'live',
          game_user_id: '2001',
        }),
    },
    {
      name: 'listApplicantSubmissions',
      run: (db) => intake.listApplicantSubmissions(db, WORKSPACE, 'live', '2001', 20),
    },
  ],
};

export const applicationsSnapshots: SnapshotModule = {
  file: 'applications',
  samples: [
    { name: 'findSubmission', run: (db) => applications.findSubmission(db, 'submission-1') },
    {
      name: 'updateSubmissionIf',
      run: (db) =>
        applications.updateSubmissionIf(db, 'submission-1', ['submitted', 'under_review'], {
          status: 'accepted',
          accepted_at: NOW,
          updated_at: NOW,
        }),
    },
    { name: 'setStaffProfile', run: (db) => applications.setStaffProfile(db, 'submission-1', STAFF) },
    { name: 'findStaffIdByGameUser', run: (db) => applications.findStaffIdByGameUser(db, WORKSPACE, '1001') },
    {
      name: 'insertStaffIfAbsent',
      run: (db) =>
        applications.insertStaffIfAbsent(db, {
          id: STAFF,
          workspaceId: WORKSPACE,
          displayName: 'Alice',
          gameUserId: '1001',
          gameUsername: 'alice',
          chatUserId: null,
          createdAt: NOW,
        }),
    },
    {
      name: 'insertCommand',
      run: (db) =>
        applications.insertCommand(db, {
          id: 'command-1',
          workspaceId: WORKSPACE,
          type: 'application.submission.accept',
          actorType: 'user',
          actorId: 'user-1',
          submissionId: 'submission-1',
          requestId: RESULT.requestId,
          idempotencyKey: RESULT.key,
          payload: {},
          createdAt: NOW,
        }),
    },
    {
      name: 'insertEvent',
      run: (db) =>
        applications.insertEvent(db, {
          id: 'event-1',
          workspaceId: WORKSPACE,
          commandId: 'command-1',
          type: 'application.submission.accepted',
          payload: {},
          createdAt: NOW,
        }),
    },
  ],
};
