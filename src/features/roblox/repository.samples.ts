import { NOW, WORKSPACE, type Samples } from '../../db/samples.ts';
import * as roblox from './repository.ts';

export const samples = {
  findWebhookSecret: (db) => roblox.findWebhookSecret(db, WORKSPACE),
  findErasureRequest: (db) => roblox.findErasureRequest(db, WORKSPACE, 'notification-1'),
  insertErasureRequest: (db) =>
    roblox.insertErasureRequest(db, {
      workspace_id: WORKSPACE,
      notification_id: 'notification-1',
      event_type: 'RightToErasureRequest',
      status: 'erased',
      counts: '{"staff":1}',
      received_at: NOW,
      completed_at: NOW,
    }),
} satisfies Samples<typeof roblox>;
