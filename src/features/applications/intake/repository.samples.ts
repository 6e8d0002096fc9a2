import { NOW, WORKSPACE, type Samples } from '../../../db/samples.ts';
import * as intake from './repository.ts';

const APPLICANT_ON_FORM = { formId: 'form-1', environment: 'live' as const, gameUserId: '2001' };

export const samples = {
  findPendingSubmission: (db) => intake.findPendingSubmission(db, APPLICANT_ON_FORM),
  findApplicantState: (db) => intake.findApplicantState(db, APPLICANT_ON_FORM, true),
  insertSubmissionUnlessPending: (db) =>
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
      environment: 'live' as const,
      game_user_id: '2001',
    }),
  listApplicantSubmissions: (db) => intake.listApplicantSubmissions(db, WORKSPACE, 'live', '2001', 20),
} satisfies Samples<typeof intake>;
