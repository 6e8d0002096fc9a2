import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { createTestDatabase, STORE_KINDS } from './helpers/stores.ts';

interface Status {
  applied: Array<{ name: string; appliedAt: string }>;
  pending: Array<{ name: string }>;
}

describe.each(STORE_KINDS)('migrate --status (%s)', (kind) => {
  it('lists every migration as pending on a fresh database and exits 1; after migrate, none is pending and it exits 0', async () => {
    const fresh = await createTestDatabase(kind, { migrate: false });
    try {
      const before = await runCli(['migrate', '--status', '--database-url', fresh.url]);
      expect(before.code, before.stderr).toBe(1);
      const pending = JSON.parse(before.stdout) as Status;
      expect(pending.applied).toEqual([]);
      expect(pending.pending.length).toBeGreaterThan(0);
      expect(pending.pending[0]).toEqual({ name: '20261121_0001_initial' });

      // The status changed nothing: a second look sees the same.
      const again = await runCli(['migrate', '--database-url', fresh.url, '--status']);
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stdout)).toEqual(pending);

      const migrate = await runCli(['migrate', '--database-url', fresh.url]);
      expect(migrate.code, migrate.stderr).toBe(0);

      const after = await runCli(['migrate', '--status', '--database-url', fresh.url]);
      expect(after.code, after.stderr).toBe(0);
      const status = JSON.parse(after.stdout) as Status;
      expect(status.pending).toEqual([]);
      expect(status.applied.map((m) => m.name)).toEqual(pending.pending.map((m) => m.name));
      for (const migration of status.applied) {
        expect(Number.isNaN(Date.parse(migration.appliedAt))).toBe(false);
      }
    } finally {
      await fresh.drop();
    }
  });
});
