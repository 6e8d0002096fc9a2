import { NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as timeOff from './upkeep.ts';

export const samples = {
  upsertNotices: (db) =>
    timeOff.upsertNotices(db, [
      {
        id: 'notice-1',
        workspace_id: WORKSPACE,
        staff_id: STAFF,
        starts_at: NOW,
        ends_at: NOW + 86_400_000,
        reason: 'Exams',
        status: 'pending',
        environment: 'live',
        created_at: NOW,
        decided_at: null,
        decision_note: null,
        decided_by: null,
        origin: 'provisioned',
      },
    ]),
  findNoticeIds: (db) => timeOff.findNoticeIds(db, [STAFF]),
  replaceNoticeTexts: (db) => timeOff.replaceNoticeTexts(db, [STAFF], 'erased'),
} satisfies Samples<typeof timeOff>;
