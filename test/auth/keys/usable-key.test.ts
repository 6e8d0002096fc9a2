import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefusal, usableKey } from '../../../src/auth/keys/api-key.ts';
import { newId } from '../../../src/shared/ids.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { buildFixture, seed, type Fixture } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';

/**
 * A usable key has one definition, in TypeScript (keyRefusal, which the lookup's 401 and 403 follow) and in SQL
 * (usableKey, which a statement acting for a cached key checks): on each store they agree on every kind of key.
 */
describe.each(STORE_KINDS)('a usable key, in SQL and in TypeScript (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = buildFixture();
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('usableKey selects the keys keyRefusal lets through', async () => {
    const db = ctx.store.db;
    const keys = [];
    for (const approved of [0, 1]) {
      const applicationId = newId();
      await db
        .insertInto('applications')
        .values({
          id: applicationId,
          workspace_id: fixture.ids.workspaceId,
          name: `app ${approved}`,
          approved,
          allowed_universe_ids: '[]',
          features: '{}',
        })
        .execute();
      for (const revoked of [0, 1]) {
        for (const expires_at of [null, DEFAULT_NOW - 1, DEFAULT_NOW, DEFAULT_NOW + 1]) {
          const key = {
            id: newId(),
            application_id: applicationId,
            environment: 'test' as const,
            key_hash: newId(),
            scopes: '[]',
            revoked,
            expires_at,
            created_at: DEFAULT_NOW,
          };
          await db.insertInto('api_keys').values(key).execute();
          keys.push({ ...key, approved });
        }
      }
    }
    const expected = keys.filter((key) => keyRefusal(key, DEFAULT_NOW) === null).map((key) => key.id).sort();
    expect(expected).toHaveLength(2);
    const { rows } = await sql<{ id: string }>`select k.id from api_keys as k join applications as a on a.id = k.application_id
      where a.workspace_id = ${fixture.ids.workspaceId} and a.name like 'app %' and ${usableKey(DEFAULT_NOW)}`.execute(db);
    expect(rows.map((row) => row.id).sort()).toEqual(expected);
  });
});
