import { NOW, WORKSPACE, type Samples } from '../../../db/samples.ts';
import * as queue from './repository.ts';

const PENDING = ['submitted', 'under_review'];

export const samples = {
  listQueue: {
    'pending, first page': (db) =>
      queue.listQueue(db, { workspaceId: WORKSPACE, environment: 'live', statuses: PENDING, formId: null, after: null, limit: 26 }),
    'a form, after a cursor': (db) =>
      queue.listQueue(db, {
        workspaceId: WORKSPACE,
        environment: 'test',
        statuses: ['accepted'],
        formId: 'form-1',
        after: { at: NOW, id: 'submission-1' },
        limit: 26,
      }),
  },
  findSubmissionDetail: (db) => queue.findSubmissionDetail(db, 'submission-1'),
  listHistory: (db) => queue.listHistory(db, 'submission-1', ['application.submission.submit', 'application.submission.accept']),
  listForms: (db) => queue.listForms(db, [WORKSPACE]),
  countByFormAndStatus: (db) => queue.countByFormAndStatus(db, [WORKSPACE], 'live'),
} satisfies Samples<typeof queue>;
