import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import { createKeyManagement } from '../../src/auth/keys/management.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import type { KeyDocument } from '../../src/provisioning/schema.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture } from '../helpers/fixtures.ts';
import { STORE_KINDS, withTestStore } from '../helpers/stores.ts';

/** The fixture with its keys' `revoked` and `expiresAt` left out, as a routine document leaves them. */
function documentWithoutKeyState() {
  const fixture = buildFixture();
  for (const application of fixture.workspace.applications ?? []) {
    application.keys = application.keys.map((key): KeyDocument => {
      const { revoked: _revoked, expiresAt: _expiresAt, ...rest } = key;
      return rest;
    });
  }
  return fixture;
}

describe.each(STORE_KINDS)('provisioning again after keys revoke and keys rotate (%s)', (kind) => {
  let store: Store;
  const clock = new ManualClock(DEFAULT_NOW);

  async function keyState(id: string) {
    const result = await sql<{ revoked: number; expires_at: number | null }>`
      select revoked, expires_at from api_keys where id = ${id}`.execute(store.db);
    const row = result.rows[0];
    if (!row) throw new Error(`no key ${id}`);
    return { revoked: Number(row.revoked), expiresAt: row.expires_at === null ? null : Number(row.expires_at) };
  }

  withTestStore(kind, (opened) => {
    store = opened;
  });

  it('a document that leaves out revoked and expiresAt keeps a revoked key revoked and a rotated key expiring', async () => {
    const fixture = documentWithoutKeyState();
    await applyProvisioning(store.db, fixture.document, clock);
    const keys = createKeyManagement({ db: store.db, clock });
    await keys.revoke(fixture.keys.test.id);
    const rotated = await keys.rotate(fixture.keys.live.id, 60);
    const graceEnd = DEFAULT_NOW + 60_000;
    expect(await keyState(fixture.keys.live.id)).toEqual({ revoked: 0, expiresAt: graceEnd });

    const again = await applyProvisioning(store.db, fixture.document, clock);

    expect(again.keys).toEqual([]);
    expect(await keyState(fixture.keys.test.id)).toEqual({ revoked: 1, expiresAt: null });
    expect(await keyState(fixture.keys.live.id)).toEqual({ revoked: 0, expiresAt: graceEnd });
    // The key the rotation created is not in the document: untouched.
    expect(await keyState(rotated.key.id)).toEqual({ revoked: 0, expiresAt: null });
  });

  it('a document that states revoked and expiresAt sets them on an existing key', async () => {
    const fixture = documentWithoutKeyState();
    await applyProvisioning(store.db, fixture.document, clock);
    const keys = createKeyManagement({ db: store.db, clock });
    await keys.revoke(fixture.keys.test.id);
    await keys.rotate(fixture.keys.live.id, 60);
    for (const application of fixture.workspace.applications ?? []) {
      application.keys = application.keys.map((key) =>
        key.id === fixture.keys.test.id
          ? { ...key, revoked: false }
          : { ...key, expiresAt: key.id === fixture.keys.live.id ? null : '2026-12-01T00:00:00Z' },
      );
    }

    await applyProvisioning(store.db, fixture.document, clock);

    expect(await keyState(fixture.keys.test.id)).toEqual({ revoked: 0, expiresAt: null });
    expect(await keyState(fixture.keys.live.id)).toEqual({ revoked: 0, expiresAt: null });
  });
});
