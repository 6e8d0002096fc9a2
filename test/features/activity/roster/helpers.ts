import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from '../../../helpers/app.ts';
import { bearer } from '../../../helpers/fixtures.ts';

export interface WeekFiguresBody {
  totalMinutes: number;
  requiredMinutes: number;
  progressPercent: number;
}

export interface RosterItemBody {
  id: string;
  displayName: string;
  gameUserId: string;
  gameUsername: string;
  chatUserId: string | null;
  departmentId: string | null;
  rank: string | null;
  status: 'active' | 'inactive';
  week: WeekFiguresBody;
  activeShift: { id: string; startedAt: string } | null;
}

export interface RosterBody {
  staff: RosterItemBody[];
  nextCursor: { cursorDisplayName: string; cursorId: string } | null;
}

/** A dashboard read as the console makes it: the member's token, and the workspace when one is named. */
export function memberGet(ctx: Pick<TestContext, 'inject'>, token: string, url: string, workspaceId?: string): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...bearer(token) };
  if (workspaceId !== undefined) headers['x-service-workspace-id'] = workspaceId;
  return ctx.inject({ method: 'GET', url, headers });
}

export function dataOf<T>(res: LightMyRequestResponse): T {
  if (res.statusCode !== 200) throw new Error(`expected 200, got ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: T }).data;
}

export function errorOf(res: LightMyRequestResponse): { code: string; details?: { issues?: { path: string }[] } } {
  return (res.json() as { error: { code: string; details?: { issues?: { path: string }[] } } }).error;
}

/** Every page of the roster for `query`, following `nextCursor`. */
export async function wholeRoster(
  ctx: Pick<TestContext, 'inject'>,
  token: string,
  query: string,
  workspaceId?: string,
): Promise<{ staff: RosterItemBody[]; pages: number }> {
  const staff: RosterItemBody[] = [];
  let cursor = '';
  for (let pages = 1; pages < 1000; pages += 1) {
    const page = dataOf<RosterBody>(await memberGet(ctx, token, `/v1/staff?${query}${cursor}`, workspaceId));
    staff.push(...page.staff);
    if (page.nextCursor === null) return { staff, pages };
    cursor = `&cursorDisplayName=${encodeURIComponent(page.nextCursor.cursorDisplayName)}&cursorId=${page.nextCursor.cursorId}`;
  }
  throw new Error('the roster never ended');
}
