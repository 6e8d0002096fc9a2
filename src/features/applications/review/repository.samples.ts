import { NOW, STAFF, type Samples } from '../../../db/samples.ts';
import * as applications from './repository.ts';

export const samples = {
  findSubmission: (db) => applications.findSubmission(db, 'submission-1'),
  updateSubmissionIf: (db) =>
    applications.updateSubmissionIf(db, 'submission-1', ['submitted', 'under_review'], {
      status: 'accepted',
      accepted_at: NOW,
      updated_at: NOW,
    }),
  setStaffProfile: (db) => applications.setStaffProfile(db, 'submission-1', STAFF),
} satisfies Samples<typeof applications>;
