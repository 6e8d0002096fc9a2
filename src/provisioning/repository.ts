/**
 * Provisioning's queries: the reads of the rows a document meets (snapshot.ts) and the writes that make the
 * store match it (write.ts, upsert.ts, webhooks.ts), all run in the one transaction of applyProvisioning. Reads
 * by id take at most a chunk of ids (snapshot.ts), writes of rows at most a batch (upsert.ts).
 */
import type { Insertable, Kysely, Updateable } from 'kysely';
import { PENDING_STATUSES } from '../features/applications/rules.ts';
import type { ApiKeyTable, Database, Executor, ShiftTable, WebhookEndpointTable } from '../db/types.ts';

/** Tables provisioning writes in batches from a document. */
export type DocumentTable =
  | 'workspaces'
  | 'departments'
  | 'members'
  | 'staff'
  | 'inactivity_notices'
  | 'applications'
  | 'application_forms'
  | 'submissions'
  | 'shifts';
type Column<T extends DocumentTable> = keyof Database[T] & string;

/** How the document's rows of one table meet the rows already there. */
export interface Upsert<T extends DocumentTable> {
  readonly table: T;
  /** The unique columns that identify an existing row. */
  readonly conflict: readonly Column<T>[];
  /** Columns the document overwrites on an existing row; none: an existing row is left as it is. */
  readonly update: readonly Column<T>[];
  /** Overwrite only when one of these differs, so re-applying the same document changes no row. */
  readonly onlyWhenChanged?: readonly Column<T>[];
  /** Overwrite only an existing row whose `column` holds `equals`; any other is left as it is. */
  readonly onlyWhere?: { readonly column: Column<T>; readonly equals: string };
}

/** Tables whose rows belong to a workspace by their `workspace_id`. */
export type OwnedTable = 'departments' | 'inactivity_notices' | 'applications' | 'application_forms' | 'submissions' | 'shifts';

// ---- Reads: what the document meets ----

export async function findWorkspacesById(db: Executor, ids: readonly string[]) {
  return db.selectFrom('workspaces').select(['id', 'slug', 'timezone']).where('id', 'in', [...ids]).execute();
}

export async function findWorkspacesBySlug(db: Executor, slugs: readonly string[]) {
  return db.selectFrom('workspaces').select(['id', 'slug']).where('slug', 'in', [...slugs]).execute();
}

/** The owning workspace of each row of `table` with one of the ids. */
export async function findOwners(db: Executor, table: OwnedTable, ids: readonly string[]) {
  return db.selectFrom(table).select(['id', 'workspace_id']).where('id', 'in', [...ids]).execute();
}

export async function findStaffById(db: Executor, ids: readonly string[]) {
  return db.selectFrom('staff').select(['id', 'workspace_id', 'game_user_id']).where('id', 'in', [...ids]).execute();
}

export async function findStaffByGameUsers(db: Executor, workspaceId: string, gameUserIds: readonly string[]) {
  return db
    .selectFrom('staff')
    .select(['id', 'workspace_id', 'game_user_id'])
    .where('workspace_id', '=', workspaceId)
    .where('game_user_id', 'in', [...gameUserIds])
    .execute();
}

/** Members of the workspace holding one of the chat user ids. */
export async function findMembersByChatUsers(db: Executor, workspaceId: string, chatUserIds: readonly string[]) {
  return db
    .selectFrom('members')
    .select(['user_id', 'chat_user_id'])
    .where('workspace_id', '=', workspaceId)
    .where('chat_user_id', 'in', [...chatUserIds])
    .execute();
}

export async function findKeysById(db: Executor, ids: readonly string[]) {
  return db.selectFrom('api_keys').select(['id', 'application_id', 'environment', 'key_hash']).where('id', 'in', [...ids]).execute();
}

export async function findKeysByHash(db: Executor, hashes: readonly string[]) {
  return db.selectFrom('api_keys').select(['id', 'key_hash']).where('key_hash', 'in', [...hashes]).execute();
}

/** Live submissions awaiting review to the forms (provisioned submissions are live). */
export async function findPendingSubmissions(db: Executor, formIds: readonly string[]) {
  return db
    .selectFrom('submissions')
    .select(['id', 'form_id', 'game_user_id'])
    .where('form_id', 'in', [...formIds])
    .where('environment', '=', 'live')
    .where('status', 'in', [...PENDING_STATUSES])
    .execute();
}

export async function findFormQuestions(db: Executor, formIds: readonly string[]) {
  return db.selectFrom('application_forms').select(['id', 'questions']).where('id', 'in', [...formIds]).execute();
}

export async function findEndpointWorkspaces(db: Executor, ids: readonly string[]) {
  return db.selectFrom('webhook_endpoints').select(['id', 'workspace_id']).where('id', 'in', [...ids]).execute();
}

// ---- Writes: the store made to match the document ----

/** Gives up the workspace's slug for a placeholder no real slug can take ("~" and its id). */
export async function releaseWorkspaceSlug(db: Executor, workspaceId: string): Promise<void> {
  await db.updateTable('workspaces').set({ slug: `~${workspaceId}` }).where('id', '=', workspaceId).execute();
}

/** Gives up the staff member's game user id for a placeholder no real one can take ("~" and its id). */
export async function releaseGameUserId(db: Executor, staffId: string): Promise<void> {
  await db.updateTable('staff').set({ game_user_id: `~${staffId}` }).where('id', '=', staffId).execute();
}

// The statement is the same for every table; checked against the table's own columns by `Upsert<T>` above.
type AnyTableDatabase = Record<string, Record<string, unknown>>;

/**
 * Inserts the rows (one batch); on a conflict, overwrites the `update` columns (when one of `onlyWhenChanged`
 * differs, if given) or leaves the existing row. Returns how many rows were inserted or changed.
 */
export async function upsertBatch<T extends DocumentTable>(
  db: Executor,
  upsert: Upsert<T>,
  rows: readonly Insertable<Database[T]>[],
): Promise<number> {
  const table: string = upsert.table;
  const conflict: readonly string[] = upsert.conflict;
  const update: readonly string[] = upsert.update;
  const onlyWhenChanged: readonly string[] | undefined = upsert.onlyWhenChanged;
  const onlyWhere: { readonly column: string; readonly equals: string } | undefined = upsert.onlyWhere;
  const loose = db as unknown as Kysely<AnyTableDatabase>;
  const result = await loose
    .insertInto(table)
    .values(rows as Record<string, unknown>[])
    .onConflict((oc) => {
      const target = oc.columns(conflict);
      if (update.length === 0) return target.doNothing();
      const set = target.doUpdateSet((eb) => Object.fromEntries(update.map((c) => [c, eb.ref(`excluded.${c}`)])));
      if (!onlyWhenChanged && !onlyWhere) return set;
      return set.where((eb) =>
        eb.and([
          ...(onlyWhenChanged
            ? [eb.or(onlyWhenChanged.map((c) => eb(eb.ref(`${table}.${c}`), 'is distinct from', eb.ref(`excluded.${c}`))))]
            : []),
          ...(onlyWhere ? [eb(eb.ref(`${table}.${onlyWhere.column}`), '=', onlyWhere.equals)] : []),
        ]),
      );
    })
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Inserts the key unless its id exists; whether it did. */
export async function insertKeyUnlessExists(db: Executor, row: Insertable<ApiKeyTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('api_keys')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateKey(
  db: Executor,
  keyId: string,
  settings: Pick<Updateable<ApiKeyTable>, 'scopes' | 'revoked' | 'expires_at'>,
): Promise<void> {
  await db.updateTable('api_keys').set(settings).where('id', '=', keyId).execute();
}

/** Inserts the shifts whose ids are new (one batch); returns the inserted ones. */
export async function insertShiftsUnlessExist(db: Executor, rows: readonly ShiftTable[]) {
  return db
    .insertInto('shifts')
    .values([...rows])
    .onConflict((oc) => oc.column('id').doNothing())
    .returning(['workspace_id', 'environment', 'staff_id', 'started_at', 'ended_at', 'last_heartbeat_at'])
    .execute();
}

export async function insertEndpoint(db: Executor, row: Insertable<WebhookEndpointTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: Executor,
  endpointId: string,
  settings: Pick<Updateable<WebhookEndpointTable>, 'url' | 'events' | 'enabled' | 'updated_at' | 'secret' | 'format'>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(settings).where('id', '=', endpointId).execute();
}
