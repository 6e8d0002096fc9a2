/**
 * Brings a store up to date: pending migrations, then the derived data a migration introduced for data that
 * already existed (the activity totals of the shifts recorded before them).
 */
import type { Store } from '../db/connect.ts';
import { ACTIVITY_TOTALS_MIGRATION, migrateToLatest, type MigrateResult } from '../db/migrate.ts';
import { rebuildTotals } from '../features/activity/totals/service.ts';

export async function upgradeStore(store: Pick<Store, 'db' | 'dialect' | 'write'>): Promise<MigrateResult> {
  const result = await migrateToLatest(store);
  if (result.applied.includes(ACTIVITY_TOTALS_MIGRATION)) await rebuildTotals({ db: store.db, write: (job) => store.write(job) });
  return result;
}
