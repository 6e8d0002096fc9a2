import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { applyProvisioning } from '../../../src/provisioning/apply.ts';
import { systemClock } from '../../../src/shared/clock.ts';
import { dashboardToken } from '../../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS } from '../../helpers/stores.ts';
import { killAll, startGateway, type Gateway } from '../../reliability/serving.ts';
import { eventually } from '../../webhooks/receiver.ts';
import { FakeOpenCloud } from './fake-open-cloud.ts';
import { API_KEY, MANAGER, newKey, rankDocument, staffMember, WEBHOOK_SECRET } from './world.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await killAll();
  for (const step of cleanup.splice(0)) await step();
});
afterAll(killAll);

describe.each(STORE_KINDS)('rank changes across gateway processes (%s)', (kind) => {
  it('kill -9 with a change on the wire, then restart: applied once the lease lapses; no secret in any answer or log line', async () => {
    const database = await createTestDatabase(kind);
    const fake = await FakeOpenCloud.start();
    cleanup.push(() => fake.close(), () => database.drop());
    const store = database.open();
    try {
      await applyProvisioning(store.db, rankDocument(), systemClock);
    } finally {
      await store.close();
    }
    const env = {
      ROBLOX_API_URL: fake.baseUrl,
      ROBLOX_SYNC_RETRY_FIRST_DELAY_MS: '200',
      WEBHOOK_LEASE_MS: '2000',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'info',
    };
    const token = await dashboardToken(MANAGER, { expiresAt: Date.now() + 3_600_000 });
    const bodies: string[] = [];
    const call = async (gateway: Gateway, method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await fetch(`${gateway.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': newKey() }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      bodies.push(text);
      const json = path.startsWith('/v1/') ? (JSON.parse(text) as { data: { changes: Array<{ sync: { status: string; attempts: number } }> } }) : null;
      return { status: res.status, json: json! };
    };
    const alice = staffMember(1);

    fake.answer = () => 'hang';
    const first = await startGateway({ name: 'first', databaseUrl: database.url, env });
    expect((await call(first, 'POST', `/v1/staff/${alice.id}/rank`, { rank: 'Senior Moderator' })).status).toBe(200);
    await eventually(() => fake.calls.length === 1, 'the assign call');
    await first.crash();
    const helper = staffMember(3, null);
    fake.answer = (request) =>
      request.path.includes(helper.gameUserId) ? { status: 403, code: 'PERMISSION_DENIED', message: 'denied' } : { status: 200 };

    const second = await startGateway({ name: 'second', databaseUrl: database.url, env });
    await eventually(async () => (await call(second, 'GET', `/v1/staff/${alice.id}/rank-changes`)).json.data.changes[0]?.sync.status === 'applied', 'applied');
    const [applied] = (await call(second, 'GET', `/v1/staff/${alice.id}/rank-changes`)).json.data.changes;
    // The crashed process's try was never recorded: the second's is the first counted.
    expect(applied!.sync.attempts).toBe(1);
    expect(fake.summary()).toEqual([
      `assign ${alice.gameUserId} 103`,
      `assign ${alice.gameUserId} 103`,
      `unassign ${alice.gameUserId} 102`,
    ]);
    // A refusal logs its failure: still without the key.
    expect((await call(second, 'POST', `/v1/staff/${helper.id}/rank`, { rank: 'Trainee' })).status).toBe(200);
    await eventually(async () => (await call(second, 'GET', `/v1/staff/${helper.id}/rank-changes`)).json.data.changes[0]?.sync.status === 'failed', 'helper failed');
    await call(second, 'GET', '/metrics');
    await call(second, 'GET', '/openapi.json');
    await second.stop();
    for (const text of [...bodies, first.output(), second.output()]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(WEBHOOK_SECRET);
    }
    expect(second.output()).toContain('rank change refused by Open Cloud');
  }, 120_000);
});
