import { HOUR, NOW, STAFF, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as notices from './repository.ts';

const NOTICE = 'notice-1';
const NEW_NOTICE: notices.NoticeRow = {
  id: NOTICE,
  workspace_id: WORKSPACE,
  staff_id: STAFF,
  starts_at: NOW,
  ends_at: NOW + 24 * HOUR,
  reason: 'Exams',
  status: 'pending',
  environment: 'live',
  created_at: NOW,
  decided_at: null,
  decision_note: null,
  decided_by: null,
  origin: 'api',
};
/** What a request may not overlap: the staff member's pending and approved notices. */
const OPEN_OVERLAP: notices.OverlapQuery = {
  staffId: STAFF,
  environment: 'live',
  statuses: ['pending', 'approved'],
  start: NOW,
  end: NOW + 24 * HOUR,
  exceptId: null,
};
/** What an approval may not overlap: the staff member's other approved notices. */
const APPROVED_OVERLAP: notices.OverlapQuery = { ...OPEN_OVERLAP, statuses: ['approved'], exceptId: NOTICE };

export const samples = {
  lockStaff: (db) => notices.lockStaff(db, STAFF),
  findOverlappingNotice: {
    request: (db) => notices.findOverlappingNotice(db, OPEN_OVERLAP),
    approval: (db) => notices.findOverlappingNotice(db, APPROVED_OVERLAP),
  },
  insertNotice: (db) => notices.insertNotice(db, NEW_NOTICE),
  insertNoticeIfClear: (db) => notices.insertNoticeIfClear(db, NEW_NOTICE),
  findNotice: (db) => notices.findNotice(db, NOTICE),
  findNoticeLockingStaff: (db) => notices.findNoticeLockingStaff(db, NOTICE),
  updateNoticeIf: {
    denial: (db) =>
      notices.updateNoticeIf(db, NOTICE, { status: 'pending' }, { status: 'denied', decided_at: NOW, decided_by: 'user-1' }),
    approval: (db) =>
      notices.updateNoticeIf(
        db,
        NOTICE,
        { status: 'pending', clearOf: APPROVED_OVERLAP },
        { status: 'approved', decided_at: NOW, decided_by: 'user-1' },
      ),
    notStarted: (db) => notices.updateNoticeIf(db, NOTICE, { status: 'approved', startsAfter: NOW }, { status: 'cancelled' }),
    underWay: (db) => notices.updateNoticeIf(db, NOTICE, { status: 'approved', underWayAt: NOW }, { ends_at: NOW }),
  },
  listStaffNotices: (db) => notices.listStaffNotices(db, STAFF, 'live', 20),
  listNotices: {
    firstPage: (db) =>
      notices.listNotices(db, { workspaceId: WORKSPACE, environment: 'live', statuses: ['pending'], staffId: null, after: null, limit: 26 }),
    afterCursorOfOneStaff: (db) =>
      notices.listNotices(db, {
        workspaceId: WORKSPACE,
        environment: 'live',
        statuses: ['pending', 'approved'],
        staffId: STAFF,
        after: { at: NOW, id: NOTICE },
        limit: 26,
      }),
  },
} satisfies Samples<typeof notices>;
