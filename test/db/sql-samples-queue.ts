/** Samples of the reviewers' reads (src/features/applications/queue/repository.ts), written to `sql/applications-queue.*.sql`. */
import * as queue from '../../src/features/applications/queue/repository.ts';
import { NOW, WORKSPACE } from './sql-sample-values.ts';
import type { SnapshotModule } from './sql-samples.ts';

const PENDING = ['submitted', 'under_review'];

export const queueSnapshots: SnapshotModule = {
  file: 'applications-queue',
  samples: [
    {
      name: 'listQueue',
      run: (db) =>
        queue.listQueue(db, { workspaceId: WORKSPACE, environment: 'live', statuses: PENDING, formId: null, after: null, limit: 26 }),
    },
    {
      name: 'listQueue (a form, after a cursor)',
      run: (db) =>
        queue.listQueue(db, {
          workspaceId: WORKSPACE,
          environment: 'test',
          statuses: ['accepted'],
          formId: 'form-1',
          after: { at: NOW, id: 'submission-1' },
          limit: 26,
        }),
    },
    { name: 'findSubmissionDetail', run: (db) => queue.findSubmissionDetail(db, 'submission-1') },
    {
      name: 'listHistory',
      run: (db) => queue.listHistory(db, 'submission-1', ['application.submission.submit', 'application.submission.accept']),
    },
    { name: 'listForms', run: (db) => queue.listForms(db, [WORKSPACE]) },
    { name: 'countByFormAndStatus', run: (db) => queue.countByFormAndStatus(db, [WORKSPACE], 'live') },
  ],
};
