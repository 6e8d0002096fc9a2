import type { Environment } from '../../../../src/shared/actor.ts';
import type { NoticeDocument, ShiftDocument, StaffDocument } from '../../../../src/provisioning/schema.ts';
import { bumpActivityVersion } from '../../../../src/features/workspaces/workspace.ts';
import { newId } from '../../../../src/shared/ids.ts';
import type { TestContext } from '../../../helpers/app.ts';
import { bearer, GUILD_ID, UNIVERSE_ID, type FixtureKey, type WorkspaceFixture } from '../../../helpers/fixtures.ts';

/** A completed shift for the provisioning document (history import). */
export function completedShift(
  fixture: WorkspaceFixture<string>,
  staffId: string,
  startedAt: string,
  endedAt: string,
  environment: Environment = 'test',
): ShiftDocument {
  return {
    id: newId(),
    staffId,
    applicationId: fixture.ids.applicationId,
    environment,
    startedAt,
    endedAt,
    endReason: 'manual',
    universeId: UNIVERSE_ID,
    placeId: '7',
    serverId: 'srv-1',
  };
}

export function notice(
  staffId: string,
  startsAt: string,
  endsAt: string,
  status: NoticeDocument['status'] = 'approved',
  reason = 'exams',
): NoticeDocument {
  return { id: newId(), staffId, startsAt, endsAt, reason, status };
}

/**
 * Moves the fixture's provisioned notices (which are `live`) to `environment`, as if a key of that environment had
 * asked for them: reports count only the notices of the reading key's environment.
 */
export async function noticesIn(ctx: Pick<TestContext, 'store'>, fixture: WorkspaceFixture<string>, environment: Environment): Promise<void> {
  const ids = ((fixture.workspace as { inactivityNotices?: NoticeDocument[] }).inactivityNotices ?? []).map((n) => n.id);
  if (ids.length === 0) return;
  await ctx.store.db.updateTable('inactivity_notices').set({ environment }).where('id', 'in', ids).execute();
}

/** Appends shifts and notices to the fixture's workspace document (before `seed`). */
export function addHistory(
  fixture: WorkspaceFixture<string>,
  history: { shifts?: ShiftDocument[]; notices?: NoticeDocument[]; staff?: StaffDocument[] },
): void {
  const workspace = fixture.workspace as {
    shifts?: ShiftDocument[];
    inactivityNotices?: NoticeDocument[];
    staff?: StaffDocument[];
  };
  workspace.shifts = [...(workspace.shifts ?? []), ...(history.shifts ?? [])];
  workspace.inactivityNotices = [...(workspace.inactivityNotices ?? []), ...(history.notices ?? [])];
  if (history.staff) workspace.staff = [...(workspace.staff ?? []), ...history.staff];
}

export interface ActiveShiftSpec {
  readonly id?: string;
  readonly staffId: string;
  readonly startedAt: string;
  readonly lastHeartbeatAt?: string;
  /** Server-clock instant the last start or heartbeat was received (liveness). */
  readonly lastSeenAt: string;
  readonly environment?: Environment;
}

/**
 * Inserts an active shift directly (the shift endpoints are tested elsewhere). A shift inserted already timed out
 * counts at once, so, like every write that changes what reports rank, it moves the workspace's activity version.
 */
export async function insertActiveShift(
  ctx: TestContext,
  fixture: WorkspaceFixture<string>,
  spec: ActiveShiftSpec,
): Promise<string> {
  const id = spec.id ?? newId();
  const startedAt = Date.parse(spec.startedAt);
  await ctx.store.db
    .insertInto('shifts')
    .values({
      id,
      workspace_id: fixture.ids.workspaceId,
      application_id: fixture.ids.applicationId,
      environment: spec.environment ?? 'test',
      staff_id: spec.staffId,
      universe_id: UNIVERSE_ID,
      place_id: '7',
      server_id: 'srv-9',
      status: 'active',
      started_at: startedAt,
      last_heartbeat_at: spec.lastHeartbeatAt ? Date.parse(spec.lastHeartbeatAt) : startedAt,
      last_seen_at: Date.parse(spec.lastSeenAt),
      ended_at: null,
      end_reason: null,
      created_at: startedAt,
    })
    .execute();
  await bumpActivityVersion(ctx.store.db, [fixture.ids.workspaceId]);
  return id;
}

/** Chat headers of the fixture's guild for an acting chat user. */
export function chatHeaders(key: FixtureKey, chatUserId: string | null | undefined, guildId = GUILD_ID) {
  return { ...bearer(key.secret), 'x-chat-guild-id': guildId, 'x-acting-chat-user-id': chatUserId ?? '' };
}

/** A uuid whose order within `block` follows `n` (so expected tie orders can be written out). */
export function orderedId(block: number, n: number): string {
  return `${block.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}
