/**
 * Real `serve` processes delivering webhooks: a database with one workspace, its submissions and one endpoint (every
 * event) at a fresh receiver, and the calls the tests make to produce events and read the outbox.
 */
import { expect } from 'vitest';
import { newId } from '../../src/shared/ids.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import { generateWebhookSecret } from '../../src/provisioning/webhooks.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { buildFixture } from '../helpers/fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.ts';
import type { Gateway } from '../reliability/serving.ts';
import { submissionDoc } from '../features/applications/helpers.ts';
import { Receiver } from './receiver.ts';

export const GATEWAY_ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_RETRY_FIRST_DELAY_MS: '200',
};

export interface World {
  /** A test key with every scope, and a staff member's game user id, for shift calls. */
  readonly apiKey: string;
  readonly gameUserId: string;
  readonly database: TestDatabase;
  readonly receiver: Receiver;
  readonly submissionIds: string[];
  readonly endpointId: string;
}

/** A database with one workspace, `count` submissions and one endpoint (every event) at a fresh receiver. */
export async function world(kind: 'sqlite' | 'postgres', count: number, receiverOptions: Parameters<typeof Receiver.start>[0] = {}): Promise<World> {
  const database = await createTestDatabase(kind);
  const receiver = await Receiver.start(receiverOptions);
  const fixture = buildFixture();
  const secret = generateWebhookSecret();
  const endpointId = newId();
  fixture.workspace.webhooks = [{ id: endpointId, url: receiver.endpoint('/hook', secret), events: ['*'], secret }];
  fixture.workspace.submissions = Array.from({ length: count }, () => submissionDoc());
  const store = database.open();
  try {
    await applyProvisioning(store.db, fixture.document, systemClock);
  } finally {
    await store.close();
  }
  const submissionIds = fixture.workspace.submissions.map((s) => s.id);
  return { apiKey: fixture.keys.test.secret, gameUserId: fixture.staff.alice.gameUserId, database, receiver, submissionIds, endpointId };
}

export async function accept(gateway: Gateway, submissionId: string, token: string): Promise<string> {
  const res = await fetch(`${gateway.baseUrl}/v1/applications/submissions/${submissionId}/accept`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': newId(), 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { eventId: string } }).data.eventId;
}

export async function deliveryStatuses(database: TestDatabase): Promise<string[]> {
  const store = database.open();
  try {
    const rows = await store.db.selectFrom('webhook_deliveries').select('status').execute();
    return rows.map((r) => r.status);
  } finally {
    await store.close();
  }
}

