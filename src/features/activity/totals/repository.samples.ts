import { AUDIENCE, HOUR, NOW, STAFF, WORKSPACE, type Samples } from '../../../db/samples.ts';
import * as totals from './repository.ts';

export const samples = {
  recordTotalsChange: (db) =>
    totals.recordTotalsChange(db, {
      deltas: [
        {
          workspace_id: WORKSPACE,
          environment: 'test',
          grain: 'day',
          bucket_start: NOW - 12 * HOUR,
          staff_id: STAFF,
          worked_ms: HOUR,
          started_shifts: 1,
          carried_shifts: 0,
        },
      ],
      longest: [{ workspaceId: WORKSPACE, environment: 'test', ms: HOUR }],
      changed: [{ workspaceId: WORKSPACE, version: 64, staffIds: new Set([STAFF]) }],
    }),
  findChanges: (db) => totals.findChanges(db, WORKSPACE, 10, 12),
  addToTotals: {
    'taking shifts out': (db) =>
      totals.addToTotals(db, [
        {
          workspace_id: WORKSPACE,
          environment: 'test',
          grain: 'day',
          bucket_start: NOW - 12 * HOUR,
          staff_id: STAFF,
          worked_ms: -HOUR,
          started_shifts: -1,
          carried_shifts: 0,
        },
      ]),
  },
  raiseLongestShift: (db) => totals.raiseLongestShift(db, [{ workspaceId: WORKSPACE, environment: 'test', ms: HOUR }]),
  clearTotals: {
    'a workspace': (db) => totals.clearTotals(db, WORKSPACE),
    'some staff': (db) => totals.clearTotals(db, WORKSPACE, [STAFF]),
  },
  findWorkspaceId: (db) => totals.findWorkspaceId(db, WORKSPACE),
  listWorkspaceIds: (db) => totals.listWorkspaceIds(db),
  staffIdsAfter: (db) => totals.staffIdsAfter(db, WORKSPACE, STAFF, 100),
  completedShiftsOf: (db) => totals.completedShiftsOf(db, WORKSPACE, [STAFF]),
  readStaffWorked: (db) =>
    totals.readStaffWorked(
      db,
      { ...AUDIENCE, staffId: STAFF },
      [{ grain: 'week', from: NOW - 168 * HOUR, to: NOW }],
      [{ start: NOW - 2 * HOUR, end: NOW }],
    ),
  readWorkspaceWorked: (db) =>
    totals.readWorkspaceWorked(
      db,
      { ...AUDIENCE, staffIds: [STAFF, 'staff-2'] },
      {
        period: { start: NOW - 170 * HOUR, end: NOW },
        run: { grain: 'day', from: NOW - 168 * HOUR, to: NOW - 24 * HOUR },
        edges: [{ start: NOW - 170 * HOUR, end: NOW - 168 * HOUR }],
      },
      NOW - 300_000,
    ),
} satisfies Samples<typeof totals>;
