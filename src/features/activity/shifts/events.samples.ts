import { NOW, SHIFT_ROW, type Samples } from '../../../db/samples.ts';
import * as events from './events.ts';

// With no endpoint in the (recording) store, only the reads of the subscribers run.
export const samples = {
  recordShiftEvents: {
    'one shift': (db) => events.recordShiftEvents(db, 'activity.shift.started', [SHIFT_ROW], NOW),
    'several shifts': (db) =>
      events.recordShiftEvents(db, 'activity.shift.ended', [SHIFT_ROW, { ...SHIFT_ROW, id: 'shift-2', workspace_id: 'workspace-2' }], NOW),
  },
} satisfies Samples<typeof events>;
