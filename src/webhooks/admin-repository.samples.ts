import { NOW, WORKSPACE, type Samples } from '../db/samples.ts';
import * as operations from './admin-repository.ts';

const WINDOW_END = NOW + 86_400_000;

export const samples = {
  recentDeliveries: {
    'every status': (db) => operations.recentDeliveries(db, { workspaceId: WORKSPACE, limit: 50 }),
    'one status': (db) => operations.recentDeliveries(db, { workspaceId: WORKSPACE, status: 'failed', limit: 50 }),
  },
  findEvent: (db) => operations.findEvent(db, 'event-1'),
  endpointInWorkspace: (db) => operations.endpointInWorkspace(db, 'endpoint-1', WORKSPACE),
  insertDeliveryUnlessExists: (db) =>
    operations.insertDeliveryUnlessExists(
      db,
      { id: 'delivery-1', eventId: 'event-1', endpointId: 'endpoint-1', workspaceId: WORKSPACE },
      NOW,
      WINDOW_END,
    ),
  resetDeliveries: {
    'every endpoint': (db) => operations.resetDeliveries(db, { eventId: 'event-1' }, NOW, WINDOW_END),
    'one endpoint': (db) => operations.resetDeliveries(db, { eventId: 'event-1', endpointId: 'endpoint-1' }, NOW, WINDOW_END),
  },
} satisfies Samples<typeof operations>;
