import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import { sha256Hex } from '../../src/shared/ids.ts';
import { applyProvisioningFile, ProvisioningError } from '../../src/provisioning/apply.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { STORE_KINDS, withTestStore } from '../helpers/stores.ts';
import { dumpDatabase } from './dump.ts';

const EXAMPLE = new URL('../../examples/provision.example.json', import.meta.url).pathname;

describe.each(STORE_KINDS)('provisioning from a file (%s)', (kind) => {
  let store: Store;
  let dir: string;
  const clock = new ManualClock(DEFAULT_NOW);

  withTestStore(kind, (opened) => {
    store = opened;
  });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsg-provision-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('the example document applies, creating its two keys with fresh secrets', async () => {
    const result = await applyProvisioningFile(store.db, EXAMPLE, clock);

    expect(result.keys.map((k) => [k.id, k.environment])).toEqual([
      ['3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a51', 'test'],
      ['3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a52', 'live'],
    ]);
    for (const key of result.keys) {
      expect(key.secret).toMatch(new RegExp(`^wsk_${key.environment}_[0-9A-Za-z]{32,}$`));
      const stored = await store.db.selectFrom('api_keys').select('key_hash').where('id', '=', key.id).executeTakeFirstOrThrow();
      expect(stored.key_hash).toBe(sha256Hex(key.secret ?? ''));
    }
    const dump = await dumpDatabase(store.db);
    expect(dump.workspaces).toHaveLength(1);
    expect(dump.workspaces[0]).toContain('"timezone":"Europe/Berlin"');
    const counts = Object.fromEntries(Object.entries(dump).map(([table, rows]) => [table, rows.length]));
    expect(counts).toMatchObject({
      departments: 2,
      members: 2,
      staff: 3,
      inactivity_notices: 1,
      applications: 1,
      api_keys: 2,
      submissions: 2,
      shifts: 2,
    });
  });

  it('applying the example again creates nothing and changes nothing', async () => {
    const before = await dumpDatabase(store.db);
    const result = await applyProvisioningFile(store.db, EXAMPLE, clock);
    expect(result.keys).toEqual([]);
    expect(await dumpDatabase(store.db)).toEqual(before);
  });

  it('malformed JSON is a ProvisioningError that says so', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ "workspaces": [ ');
    const error = await applyProvisioningFile(store.db, file, clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProvisioningError);
    expect((error as ProvisioningError).issues).toEqual([
      { path: '$', message: expect.stringMatching(/broken\.json is not valid JSON: /) },
    ]);
  });

  it('a missing file is a ProvisioningError naming the file', async () => {
    const file = join(dir, 'absent.json');
    const error = await applyProvisioningFile(store.db, file, clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProvisioningError);
    expect((error as ProvisioningError).issues[0]?.message).toContain(`cannot read ${file}`);
  });
});
