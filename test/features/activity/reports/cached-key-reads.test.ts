import { beforeEach, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../helpers/app.ts';
import { bearer, GUILD_ID, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { useShiftWorld } from '../shifts/shift-client.ts';
import { keyChanges } from '../../../helpers/key-changes.ts';

/**
 * The summary and the leaderboard use a key verified within the last minute from the cache, and their first
 * statement checks its credential. Whatever changes about the key or its application (written straight to the
 * database, as another instance or the CLI would) takes effect on the very next read.
 */
describe.each(STORE_KINDS)('reads with a cached key (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  const world = useShiftWorld(kind);

  const READS = [
    { name: 'summary', url: '/v1/activity/me/summary' },
    { name: 'leaderboard', url: '/v1/activity/leaderboard' },
  ] as const;

  function read(url: string) {
    return ctx.inject({
      method: 'GET',
      url,
      headers: { ...bearer(fixture.keys.test.secret), 'x-chat-guild-id': GUILD_ID, 'x-acting-chat-user-id': '5551' },
    });
  }

  beforeEach(async () => {
    ({ ctx, fixture } = world);
    // The first read verifies the key; the next ones use it from the cache.
    for (const { url } of READS) expect((await read(url)).statusCode).toBe(200);
  });

  const changes = keyChanges({ scope: 'activity:read', scopesLeft: ['activity:write'] });

  describe.each(READS)('$name', ({ url }) => {
    it.each(changes)('a key $name is refused on the next read', async ({ status, code, apply }) => {
      await apply(ctx, fixture);
      ctx.clock.advance(1000);
      const res = await read(url);
      expect(res.statusCode).toBe(status);
      expect(res.json().error.code).toBe(code);
      // And the one after it, now that the key is no longer cached.
      expect((await read(url)).statusCode).toBe(status);
    });

    it('a key whose credential changed but still allows the read is looked up and answered', async () => {
      await ctx.store.db.updateTable('applications').set({ name: 'Renamed' }).where('id', '=', fixture.ids.applicationId).execute();
      expect((await read(url)).statusCode).toBe(200);
      expect((await read(url)).statusCode).toBe(200);
    });
  });
});
