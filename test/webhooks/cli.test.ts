import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledEndpoints, enqueueWebhookEvent } from '../../src/webhooks/outbox.ts';
import { rowsOf } from '../../src/db/dialect.ts';
import { newId } from '../../src/shared/ids.ts';
import { isWebhookSecret } from '../../src/provisioning/webhooks.ts';
import { runCli } from '../helpers/cli.ts';
import { buildFixture } from '../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../helpers/stores.ts';

describe.each(STORE_KINDS)('webhooks through the command line (%s)', (kind) => {
  let database: TestDatabase;
  let dir: string;
  const fixture = buildFixture();
  const generated = newId();
  const given = newId();
  const givenSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    dir = mkdtempSync(join(tmpdir(), 'wsg-webhooks-cli-'));
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const documentFile = (name: string, document: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(document));
    return file;
  };

  it('provision prints a generated secret once, never a given one, and a second run prints none', async () => {
    fixture.workspace.webhooks = [
      { id: generated, url: 'https://hooks.example.com/a', events: ['*'] },
      { id: given, url: 'https://hooks.example.com/b', events: ['application.submission.accepted'], secret: givenSecret },
    ];
    const file = documentFile('doc.json', fixture.document);
    const first = await runCli(['provision', file], { DATABASE_URL: database.url });
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout) as { webhooks: Array<{ id: string; secret?: string }> };
    expect(result.webhooks).toEqual([{ id: generated, secret: expect.any(String) }, { id: given }]);
    expect(isWebhookSecret(result.webhooks[0]!.secret!)).toBe(true);
    expect(first.stdout).not.toContain(givenSecret);
    const second = await runCli(['provision', file], { DATABASE_URL: database.url });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ keys: [], webhooks: [] });
  });

  it('provision rejects a malformed secret or URL without echoing the secret, changing nothing', async () => {
    const badSecret = 'whsec_dG9vc2hvcnQ=';
    const document = structuredClone(fixture.document);
    document.workspaces[0]!.webhooks = [
      { id: newId(), url: 'ftp://hooks.example.com', events: ['*'] },
      { id: newId(), url: 'https://hooks.example.com/c', events: ['*'], secret: badSecret },
    ];
    const res = await runCli(['provision', documentFile('bad.json', document)], { DATABASE_URL: database.url });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('$.workspaces[0].webhooks[0].url');
    expect(res.stderr).toContain('$.workspaces[0].webhooks[1].secret');
    expect(res.stderr).not.toContain(badSecret);
    const unknownType = structuredClone(fixture.document);
    unknownType.workspaces[0]!.webhooks = [{ id: newId(), url: 'https://x.example.com', events: ['nope' as '*'] }];
    const typed = await runCli(['provision', documentFile('type.json', unknownType)], { DATABASE_URL: database.url });
    expect(typed.code).not.toBe(0);
  });

  it('webhooks deliveries lists a workspace\'s deliveries by status; redeliver makes an event due again', async () => {
    const store = database.open();
    const eventId = newId();
    try {
      await store.db.transaction().execute(async (trx) =>
        enqueueWebhookEvent(
          trx,
          {
            id: eventId,
            type: 'application.submission.accepted',
            workspaceId: fixture.ids.workspaceId,
            environment: null,
            createdAt: Date.now(),
            data: { submissionId: newId() },
          },
          await rowsOf(trx, enabledEndpoints(trx, [fixture.ids.workspaceId])),
        ),
      );
      await store.db.updateTable('webhook_deliveries').set({ status: 'failed', attempts: 3 }).where('event_id', '=', eventId).execute();
    } finally {
      await store.close();
    }
    const env = { DATABASE_URL: database.url };
    const all = await runCli(['webhooks', 'deliveries', '--workspace', fixture.ids.workspaceId], env);
    expect(all.code, all.stderr).toBe(0);
    const listed = JSON.parse(all.stdout) as { deliveries: Array<Record<string, unknown>> };
    expect(listed.deliveries.map((d) => d.endpointId).sort()).toEqual([generated, given].sort());
    expect(listed.deliveries[0]).toMatchObject({ eventId, eventType: 'application.submission.accepted', status: 'failed', attempts: 3 });
    expect(all.stdout).not.toMatch(/whsec_/);

    const pending = await runCli(['webhooks', 'deliveries', '--workspace', fixture.ids.workspaceId, '--status', 'pending', '--limit', '5'], env);
    expect(JSON.parse(pending.stdout)).toEqual({ deliveries: [] });

    const one = await runCli(['webhooks', 'redeliver', eventId, '--endpoint', given], env);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ eventId, deliveries: [{ id: expect.any(String), endpointId: given, status: 'pending' }] });
    const after = JSON.parse(
      (await runCli(['webhooks', 'deliveries', '--workspace', fixture.ids.workspaceId, '--status', 'pending'], env)).stdout,
    ) as { deliveries: Array<{ endpointId: string; nextAttemptAt: string }> };
    expect(after.deliveries.map((d) => d.endpointId)).toEqual([given]);

    const both = await runCli(['webhooks', 'redeliver', eventId], env);
    expect((JSON.parse(both.stdout) as { deliveries: unknown[] }).deliveries).toHaveLength(2);
  });

  it('unknown events, bad options and a missing subcommand fail with a clear message', async () => {
    const env = { DATABASE_URL: database.url };
    const unknown = await runCli(['webhooks', 'redeliver', newId()], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/event/i);
    const status = await runCli(['webhooks', 'deliveries', '--workspace', fixture.ids.workspaceId, '--status', 'lost'], env);
    expect(status.code).not.toBe(0);
    expect(status.stderr).toContain('--status must be one of pending, delivered, failed');
    const missing = await runCli(['webhooks', 'deliveries'], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--workspace must be a uuid');
    const none = await runCli(['webhooks'], env);
    expect(none.code).not.toBe(0);
  });
});
