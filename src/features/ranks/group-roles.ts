/**
 * `roblox roles`: a group's roles as the provisioning document's `ranks` (docs/ROBLOX.md, "Map the group's roles
 * to ranks"). Open Cloud's List Group Roles as its reference documents it: `GET
 * {ROBLOX_API_URL}/cloud/v2/groups/{groupId}/roles?maxPageSize=…&pageToken=…` with the `x-api-key` header, answering
 * `{ groupRoles: [{ path, id, displayName, description, rank, memberCount, … }], nextPageToken }` (no token, or an
 * empty one, on the last page); errors are JSON `{ code, message }`. The key is only ever sent in that header.
 */

export const DEFAULT_ROBLOX_API_URL = 'https://apis.roblox.com';

/** The most roles Open Cloud returns in a page (a larger `maxPageSize` is read as this). */
const PAGE_SIZE = 20;
const TIMEOUT_MS = 30_000;

export class GroupRolesError extends Error {
  override name = 'GroupRolesError';
}

/** A group role as Open Cloud describes it (the fields the ranks need). */
export interface GroupRole {
  readonly id: string;
  readonly displayName: string;
  readonly rank: number;
}

/** A rank of the provisioning document. */
export interface RankEntry {
  readonly name: string;
  readonly roleId: string;
  readonly order: number;
  readonly assignable?: false;
}

export interface ListRolesOptions {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly groupId: string;
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Roblox's `{ code, message }` shown, or the body's start when it is not that. */
function refusal(status: number, text: string): GroupRolesError {
  let code = '';
  let message = text.slice(0, 500);
  try {
    const body = record(JSON.parse(text));
    if (body && (body.code !== undefined || body.message !== undefined)) {
      code = body.code === undefined ? '' : ` ${String(body.code)}`;
      message = body.message === undefined ? '' : String(body.message).slice(0, 500);
    }
  } catch {
    // Not JSON: shown as it came.
  }
  return new GroupRolesError(`Open Cloud refused to list the group's roles (HTTP ${status}${code}): ${message}`);
}

function rolesOfPage(body: unknown): { roles: GroupRole[]; next: string } {
  const page = record(body);
  const list = page?.groupRoles ?? [];
  if (!page || !Array.isArray(list)) throw new GroupRolesError('Open Cloud answered with something other than a page of group roles');
  const roles = list.map((item): GroupRole => {
    const role = record(item);
    const rank = Number(role?.rank);
    if (!role || typeof role.id !== 'string' || typeof role.displayName !== 'string' || !Number.isInteger(rank)) {
      throw new GroupRolesError('Open Cloud answered with a group role without an id, a displayName or a rank');
    }
    return { id: role.id, displayName: role.displayName, rank };
  });
  return { roles, next: typeof page.nextPageToken === 'string' ? page.nextPageToken : '' };
}

/** Every role of the group, page after page. */
export async function listGroupRoles({ apiUrl, apiKey, groupId }: ListRolesOptions): Promise<GroupRole[]> {
  const base = `${apiUrl.replace(/\/+$/, '')}/cloud/v2/groups/${encodeURIComponent(groupId)}/roles`;
  const roles: GroupRole[] = [];
  const seen = new Set<string>();
  let token = '';
  do {
    const query = new URLSearchParams({ maxPageSize: String(PAGE_SIZE), ...(token === '' ? {} : { pageToken: token }) });
    let response: Response;
    try {
      response = await fetch(`${base}?${query}`, {
        headers: { 'x-api-key': apiKey, accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'manual',
      });
    } catch (error) {
      throw new GroupRolesError(`Open Cloud could not be reached at ${apiUrl}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    if (response.status < 200 || response.status >= 300) throw refusal(response.status, text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new GroupRolesError('Open Cloud answered with something other than JSON');
    }
    const page = rolesOfPage(body);
    roles.push(...page.roles);
    seen.add(token);
    token = page.next;
    if (seen.has(token) && token !== '') throw new GroupRolesError('Open Cloud answered the same page token twice');
  } while (token !== '');
  return roles;
}

/**
 * The roles as ranks: by rank, the guest role (rank 0, everyone outside the group) left out, as a rank's `order` is
 * 1 to 255. The owner's role (255), which Open Cloud never gives or takes, is marked `assignable: false`.
 */
export function ranksOfRoles(roles: readonly GroupRole[]): RankEntry[] {
  return roles
    .filter((role) => role.rank >= 1 && role.rank <= 255)
    .sort((a, b) => a.rank - b.rank)
    .map((role) => ({ name: role.displayName, roleId: role.id, order: role.rank, ...(role.rank === 255 ? { assignable: false as const } : {}) }));
}
