/**
 * Rank changes on the dashboard (docs/ROBLOX.md, "Rank changes"): `POST /v1/staff/{staffId}/rank` in the write's
 * transaction, and the list of a staff member's changes. Staff members are found as notices and submissions are:
 * one the caller cannot see (not a member, or another workspace selected) is 404.
 */
import type { UserActor } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Executor } from '../../db/types.ts';
import { AppError, notFound, validationError } from '../../shared/errors.ts';
import { isUuid } from '../../shared/ids.ts';
import type { RequestContext } from '../../journal/journal.ts';
import { lastRankChanges } from './history.ts';
import { recordRankChange } from './record.ts';
import { findRanks, findStaffLocking, findStaffWorkspace } from './repository.ts';
import { characters, LIST_LIMIT, PERMISSION, REASON_MAX } from './rules.ts';
import type { ChangeBody, ChangeResult, RankChange } from './schemas.ts';

/** With a workspace selected, only that workspace is visible; otherwise every workspace the caller belongs to. */
function canSee(actor: UserActor, workspaceId: string): boolean {
  return actor.selectedWorkspaceId !== null ? actor.selectedWorkspaceId === workspaceId : actor.memberships.has(workspaceId);
}

/** The reason: trimmed, 1..REASON_MAX characters; null when none was sent. */
function reasonOf(body: ChangeBody): string | null {
  if (body.reason === undefined) return null;
  const reason = body.reason.trim();
  if (reason === '') throw validationError([{ path: 'body.reason', message: 'must not be empty (after trimming)' }]);
  if (characters(reason) > REASON_MAX) {
    throw validationError([{ path: 'body.reason', message: `must NOT have more than ${REASON_MAX} characters (after trimming)` }]);
  }
  return reason;
}

export interface ChangeInput {
  readonly staffId: string;
  readonly body: ChangeBody;
  readonly request: RequestContext;
}

export interface RankServiceDeps {
  readonly db: Executor;
  readonly clock: Clock;
}

export function createRankService({ db, clock }: RankServiceDeps) {
  return {
    /**
     * The staff member (404), the permission (403 `permission_denied`), the reason and a rank of the workspace
     * (400 naming `rank`), `rank_not_assignable` (giving or taking), then `rank_unchanged`: the first that
     * applies answers. The staff member's row is locked first, so two changes of one member take turns.
     */
    async change(trx: Executor, actor: UserActor, { staffId, body, request }: ChangeInput): Promise<ChangeResult> {
      const staff = isUuid(staffId) ? await findStaffLocking(trx, staffId.toLowerCase()) : undefined;
      const permissions = staff ? actor.memberships.get(staff.workspace_id) : undefined;
      if (!staff || !permissions || !canSee(actor, staff.workspace_id)) throw notFound('The staff member');
      if (!permissions.has(PERMISSION)) {
        throw new AppError('permission_denied', `This operation requires the ${PERMISSION} permission.`, {
          requiredPermission: PERMISSION,
        });
      }
      const reason = reasonOf(body);
      const ranks = await findRanks(trx, staff.workspace_id);
      const target = ranks.find((rank) => rank.name === body.rank);
      if (ranks.length > 0 && !target) {
        throw validationError([{ path: 'body.rank', message: `is not a rank of this workspace (one of ${ranks.map((r) => `"${r.name}"`).join(', ')})` }]);
      }
      const current = ranks.find((rank) => rank.name === staff.rank);
      const locked = [target, current].find((rank) => rank !== undefined && rank.assignable === 0);
      if (locked) {
        throw new AppError('rank_not_assignable', `The rank "${locked.name}" is not assignable: the API neither gives nor takes it.`, {
          rank: locked.name,
        });
      }
      if (staff.rank === body.rank) {
        throw new AppError('rank_unchanged', `The staff member already holds the rank "${body.rank}".`, { rank: body.rank });
      }
      return recordRankChange(trx, {
        staff,
        toRank: body.rank,
        reason,
        changedBy: actor.userId,
        request,
        commandType: 'rank_changed',
        now: clock.now(),
      });
    },

    /** The staff member's changes, newest first (404 as for a change; any member may read). */
    async list(actor: UserActor, staffId: string): Promise<{ changes: RankChange[] }> {
      const workspaceId = isUuid(staffId) ? await findStaffWorkspace(db, staffId.toLowerCase()) : undefined;
      if (workspaceId === undefined || !canSee(actor, workspaceId)) throw notFound('The staff member');
      return { changes: await lastRankChanges(db, staffId.toLowerCase(), LIST_LIMIT) };
    },
  };
}

export type RankService = ReturnType<typeof createRankService>;
