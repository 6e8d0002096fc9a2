import { NOW, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as applications from './upkeep.ts';

export const samples = {
  insertSubmissionsUnlessExist: (db) =>
    applications.insertSubmissionsUnlessExist(db, [
      {
        id: 'submission-1',
        workspace_id: WORKSPACE,
        status: 'accepted',
        score: null,
        reviewer_notes: null,
        applicant: '{"gameUserId":"2001","gameUsername":null,"displayName":null,"chatUserId":null}',
        answers: '[]',
        created_at: NOW,
        reviewed_at: NOW,
        accepted_at: NOW,
        rejected_at: null,
        staff_profile_id: null,
        updated_at: NOW,
        form_id: 'form-1',
        environment: 'live',
        game_user_id: '2001',
      },
    ]),
  findSubmissionCandidates: {
    everywhere: (db) => applications.findSubmissionCandidates(db, '1001', ['"gameUserId":"1001"']),
    inWorkspace: (db) => applications.findSubmissionCandidates(db, '1001', ['"gameUserId":"1001"'], WORKSPACE),
  },
  eraseSubmission: (db) => applications.eraseSubmission(db, 'submission-1', { applicant: '{"gameUserId":null}', answers: '{}' }),
} satisfies Samples<typeof applications>;
