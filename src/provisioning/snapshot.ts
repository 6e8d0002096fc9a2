import type { Environment } from '../shared/actor.ts';
import type { Executor } from '../db/types.ts';
import { hashApiKey } from '../auth/keys/api-key.ts';
import type { EntityEntry, EntityKind } from './entities.ts';
import {
  findKeysByHash,
  findKeysById,
  findMembersByChatUsers,
  findOwners,
  findPendingSubmissions,
  findStaffByGameUsers,
  findStaffById,
  findWorkspacesById,
  findWorkspacesBySlug,
  type OwnedTable,
} from './repository.ts';
import type { ProvisioningDocument } from './schema.ts';

/** The rows already in the database that the document touches or refers to. */
export interface Snapshot {
  readonly workspaces: ReadonlyMap<string, { readonly slug: string; readonly timezone: string }>;
  /** Workspaces holding one of the document's slugs, by slug. */
  readonly workspaceIdBySlug: ReadonlyMap<string, string>;
  /** Owning workspace id, by entity kind and id (departments, staff, notices, applications, forms, submissions, shifts). */
  readonly owners: ReadonlyMap<OwnedKind, ReadonlyMap<string, string>>;
  /** Staff of the document's workspaces whose game user id the document also uses, plus every staff row by id. */
  readonly staff: ReadonlyMap<string, ExistingStaff>;
  readonly keys: ReadonlyMap<string, ExistingKey>;
  /** Key id by hash, for the hashes of imported secrets. */
  readonly keyIdByHash: ReadonlyMap<string, string>;
  /**
   * Live submissions awaiting review (`submitted`, `under_review`) to the forms the document's submissions name,
   * by pendingKey(form, applicant): at most one each (`submissions_one_pending`).
   */
  readonly pendingSubmissions: ReadonlyMap<string, string>;
  /** Members of the document's workspaces holding a chat user id the document gives a member, by memberChatKey. */
  readonly memberByChatUser: ReadonlyMap<string, string>;
}

/** The key of a member's chat user id in a workspace. */
export function memberChatKey(workspaceId: string, chatUserId: string): string {
  return `${workspaceId}\n${chatUserId}`;
}

async function loadMembersByChatUser(db: Executor, document: ProvisioningDocument): Promise<Map<string, string>> {
  const holders = new Map<string, string>();
  for (const workspace of document.workspaces) {
    const chatUserIds = new Set((workspace.members ?? []).flatMap((m) => (m.chatUserId == null ? [] : [m.chatUserId])));
    const rows = await inChunks(chatUserIds, (chunk) => findMembersByChatUsers(db, workspace.id, chunk));
    for (const row of rows) if (row.chat_user_id !== null) holders.set(memberChatKey(workspace.id, row.chat_user_id), row.user_id);
  }
  return holders;
}

/** The key of an applicant's pending submission to a form (provisioned submissions are live). */
export function pendingKey(formId: string, gameUserId: string): string {
  return `${formId}\n${gameUserId}`;
}

async function loadPendingSubmissions(db: Executor, document: ProvisioningDocument): Promise<Map<string, string>> {
  const formIds = new Set(
    document.workspaces.flatMap((w) => (w.submissions ?? []).flatMap((s) => (s.formId === undefined ? [] : [s.formId]))),
  );
  const rows = await inChunks(formIds, (chunk) => findPendingSubmissions(db, chunk));
  return new Map(rows.map((row) => [pendingKey(row.form_id ?? '', row.game_user_id ?? ''), row.id]));
}

export type OwnedKind = Exclude<EntityKind, 'workspace' | 'key'>;

export interface ExistingStaff {
  readonly id: string;
  readonly workspaceId: string;
  readonly gameUserId: string;
}

export interface ExistingKey {
  readonly applicationId: string;
  readonly environment: Environment;
  readonly keyHash: string;
}

// Staff owners come from the staff rows loaded with their game user ids.
const OWNED_TABLES = {
  department: 'departments',
  notice: 'inactivity_notices',
  application: 'applications',
  form: 'application_forms',
  submission: 'submissions',
  shift: 'shifts',
} as const satisfies Record<Exclude<OwnedKind, 'staff'>, OwnedTable>;

// Well under the bound-parameter limits of both stores.
const CHUNK = 500;

async function inChunks<T>(values: ReadonlySet<string>, load: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const all = [...values];
  const rows: T[] = [];
  for (let i = 0; i < all.length; i += CHUNK) rows.push(...(await load(all.slice(i, i + CHUNK))));
  return rows;
}

/** Ids the document defines or refers to, per kind. */
function wantedIds(document: ProvisioningDocument, entries: readonly EntityEntry[]): Map<EntityKind, Set<string>> {
  const wanted = new Map<EntityKind, Set<string>>();
  const add = (kind: EntityKind, id: string | null | undefined) => {
    if (typeof id !== 'string') return;
    const set = wanted.get(kind) ?? new Set<string>();
    set.add(id);
    wanted.set(kind, set);
  };
  for (const entry of entries) add(entry.kind, entry.id);
  for (const workspace of document.workspaces) {
    for (const staff of workspace.staff ?? []) add('department', staff.departmentId);
    for (const form of workspace.forms ?? []) add('department', form.departmentId);
    for (const submission of workspace.submissions ?? []) add('form', submission.formId);
    for (const notice of workspace.inactivityNotices ?? []) add('staff', notice.staffId);
    for (const shift of workspace.shifts ?? []) {
      add('staff', shift.staffId);
      add('application', shift.applicationId);
    }
  }
  return wanted;
}

async function loadOwners(db: Executor, kind: keyof typeof OWNED_TABLES, ids: ReadonlySet<string>): Promise<Map<string, string>> {
  const rows = await inChunks(ids, (chunk) => findOwners(db, OWNED_TABLES[kind], chunk));
  return new Map(rows.map((row) => [row.id, row.workspace_id]));
}

async function loadWorkspaces(db: Executor, document: ProvisioningDocument) {
  const ids = new Set(document.workspaces.map((w) => w.id));
  const slugs = new Set(document.workspaces.map((w) => w.slug));
  const byId = await inChunks(ids, (chunk) => findWorkspacesById(db, chunk));
  const bySlug = await inChunks(slugs, (chunk) => findWorkspacesBySlug(db, chunk));
  return {
    workspaces: new Map(byId.map((row) => [row.id, { slug: row.slug, timezone: row.timezone }])),
    workspaceIdBySlug: new Map(bySlug.map((row) => [row.slug, row.id])),
  };
}

async function loadStaff(db: Executor, document: ProvisioningDocument, ids: ReadonlySet<string>) {
  const rows = await inChunks(ids, (chunk) => findStaffById(db, chunk));
  for (const workspace of document.workspaces) {
    const gameUserIds = new Set((workspace.staff ?? []).map((s) => s.gameUserId));
    rows.push(
      ...(await inChunks(gameUserIds, (chunk) => findStaffByGameUsers(db, workspace.id, chunk))),
    );
  }
  return new Map(
    rows.map((row): [string, ExistingStaff] => [
      row.id,
      { id: row.id, workspaceId: row.workspace_id, gameUserId: row.game_user_id },
    ]),
  );
}

async function loadKeys(db: Executor, document: ProvisioningDocument, ids: ReadonlySet<string>) {
  const byId = await inChunks(ids, (chunk) => findKeysById(db, chunk));
  const hashes = new Set(
    document.workspaces.flatMap((w) =>
      (w.applications ?? []).flatMap((a) => a.keys.flatMap((k) => (k.secret === undefined ? [] : [hashApiKey(k.secret)]))),
    ),
  );
  const byHash = await inChunks(hashes, (chunk) => findKeysByHash(db, chunk));
  return {
    keys: new Map(
      byId.map((row): [string, ExistingKey] => [
        row.id,
        { applicationId: row.application_id, environment: row.environment, keyHash: row.key_hash },
      ]),
    ),
    keyIdByHash: new Map(byHash.map((row) => [row.key_hash, row.id])),
  };
}

/** Reads, inside the provisioning transaction, every existing row the document could collide with. */
export async function loadSnapshot(
  db: Executor,
  document: ProvisioningDocument,
  entries: readonly EntityEntry[],
): Promise<Snapshot> {
  const wanted = wantedIds(document, entries);
  const ids = (kind: EntityKind): ReadonlySet<string> => wanted.get(kind) ?? new Set<string>();
  const staff = await loadStaff(db, document, ids('staff'));
  const owners = new Map<OwnedKind, ReadonlyMap<string, string>>([
    ['staff', new Map([...staff.values()].map((row) => [row.id, row.workspaceId]))],
  ]);
  for (const kind of Object.keys(OWNED_TABLES) as Array<keyof typeof OWNED_TABLES>) {
    owners.set(kind, await loadOwners(db, kind, ids(kind)));
  }
  return {
    ...(await loadWorkspaces(db, document)),
    owners,
    staff,
    ...(await loadKeys(db, document, ids('key'))),
    pendingSubmissions: await loadPendingSubmissions(db, document),
    memberByChatUser: await loadMembersByChatUser(db, document),
  };
}
