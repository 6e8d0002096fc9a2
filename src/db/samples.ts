/**
 * What a module's SQL samples are made of. Every module that runs queries has a sibling `<name>.samples.ts`
 * exporting `samples`: one entry per exported function of the module, a call with the values below on a Kysely
 * instance that only records what it is asked to run (no database). test/db/sql-snapshots.test.ts writes what
 * they run to `sql/<module path>.<dialect>.sql` for both stores, and fails when an exported function has no entry.
 * `satisfies Samples<typeof module>` makes a renamed, added or removed function a type error in its samples.
 * Nothing here is imported by the gateway itself.
 */
import type { Kysely } from 'kysely';
import type { Store } from './store.ts';
import type { Database } from './types.ts';

/** One call of a query function with sample values; `store` writes in a (recorded) transaction of `db`. */
export type Sample = (db: Kysely<Database>, store: Store) => Promise<unknown>;

/** Several calls of one function, each showing a shape of its query, by what sets it apart. */
export interface Variants {
  readonly [variant: string]: Sample;
}

/** An exported function that runs no query (a pure helper of the module), and why it has no sample. */
export interface NoQuery {
  readonly noQuery: string;
}

export const noQuery = (reason: string): NoQuery => ({ noQuery: reason });

/** The sample of a statement only one store runs (its twin for the other stands beside it): none on the other. */
export const onlyOn =
  (dialect: Store['dialect'], sample: Sample): Sample =>
  (db, store) =>
    store.dialect === dialect ? sample(db, store) : Promise.resolve();

type FunctionName<M> = { [K in keyof M]: M[K] extends (...args: never[]) => unknown ? K : never }[keyof M] & string;

/** One entry per exported function of the module `M` (`typeof import('./module.ts')`). */
export type Samples<M> = { readonly [K in FunctionName<M>]: Sample | Variants | NoQuery };

// The values the samples call the functions with: fixed, so the snapshot files change only when the queries do.
export const NOW = Date.parse('2026-03-11T12:00:00.000Z');
export const HOUR = 3_600_000;
export const WORKSPACE = 'workspace-1';
export const APPLICATION = 'application-1';
export const STAFF = 'staff-1';
export const SHIFT = 'shift-1';
export const OWNER = { applicationId: APPLICATION, environment: 'test' as const };
export const AUDIENCE = { workspaceId: WORKSPACE, environment: 'test' as const };
export const HEARTBEAT = { recordedAt: NOW, seenAt: NOW, staleBefore: NOW - 300_000, owner: OWNER, serverId: 'server-1' };
export const RESULT = {
  scope: `app:${APPLICATION}:test`,
  key: 'idempotency-key-1',
  fingerprint: 'fingerprint',
  status: 200,
  body: '{"data":{}}',
  requestId: 'req_0000000000000000',
  now: NOW,
};
export const CREDENTIAL = {
  keyHash: 'key-hash',
  keyId: 'key-1',
  environment: 'test' as const,
  scopes: '["activity:write"]',
  applicationId: APPLICATION,
  applicationName: 'Game',
  workspaceId: WORKSPACE,
  features: '{"activity":true}',
  allowedUniverseIds: '["42"]',
};
export const SHIFT_ROW = {
  id: SHIFT,
  workspace_id: WORKSPACE,
  application_id: APPLICATION,
  environment: 'test' as const,
  staff_id: STAFF,
  universe_id: '42',
  place_id: '7',
  server_id: 'server-1',
  status: 'active',
  started_at: NOW - HOUR,
  last_heartbeat_at: NOW - HOUR,
  last_seen_at: NOW,
  ended_at: null,
  end_reason: null,
  created_at: NOW,
};
export const SPAN = { workspace_id: WORKSPACE, environment: 'test' as const, staff_id: STAFF, started_at: NOW - 2 * HOUR, ended_at: NOW };
export const EVENT = {
  id: 'event-1',
  type: 'activity.shift.ended' as const,
  workspaceId: WORKSPACE,
  environment: 'test' as const,
  createdAt: NOW,
  data: { shift: { id: SHIFT } },
};
/** A clock that always says NOW. */
export const SAMPLE_CLOCK = { now: () => NOW };
