/**
 * Dashboard users' memberships of workspaces (`members`, written by provisioning), read on every dashboard
 * request by src/auth/dashboard-auth.ts. Its own module, beside keys/: HTTP glue reads it, and a feature's
 * repository is the feature's own.
 */
import { sql } from 'kysely';
import { rowsOf } from '../../db/dialect.ts';
import type { Executor } from '../../db/types.ts';

/** The user's memberships: each workspace with the JSON array of the user's permissions there. */
export async function findMemberships(
  db: Executor,
  userId: string,
): Promise<Array<{ readonly workspace_id: string; readonly permissions: string }>> {
  // Every dashboard request reads it: a `sql` template costs less to build than a Kysely builder.
  return rowsOf(db, sql<{ workspace_id: string; permissions: string }>`select workspace_id, permissions from members where user_id = ${userId}`);
}
