/**
 * The rank sync (docs/ROBLOX.md, "Sync"): pending rank changes applied to the Roblox group after their commit.
 * A durable job on the webhook outbox's mechanism (docs/ARCHITECTURE.md, "Durable jobs"): claimed under a lease
 * (repository.ts), so one instance applies a change at a time and a crashed instance's claims lapse and are taken
 * again; retried after growing, jittered delays (`retryDelayMs` of webhooks/retry.ts) for 24 h; the loop waits on
 * an injected timer (`Pause` of webhooks/timer.ts) and is woken by commits that add changes.
 */
import type { Store } from '../../../db/store.ts';
import type { Clock } from '../../../shared/clock.ts';
import { randomBase62 } from '../../../shared/ids.ts';
import { retryDelayMs, type RetryPolicy } from '../../../webhooks/retry.ts';
import { Pause, type Timer } from '../../../webhooks/timer.ts';
import type { SyncError } from '../rules.ts';
import type { CallWindow } from './call-limit.ts';
import { callRole, isFinal, roleCalls, type CallOutcome, type RoleCall } from './open-cloud.ts';
import { writeOutcome } from './outcome.ts';
import { claimDueChanges, releaseChanges, type ClaimedChange, type SyncOutcome } from './repository.ts';

export interface RankSyncSettings {
  /** Open Cloud's address (ROBLOX_API_URL). */
  readonly baseUrl: string;
  /** Each call must be answered within this. */
  readonly timeoutMs: number;
  /** How long a claim is held: longer than a change's calls and their recording. */
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  readonly retry: RetryPolicy;
  /** Changes claimed at once (each of another staff member). */
  readonly batch: number;
  /**
   * At most `max` Open Cloud calls per API key in any `windowMs`, across the instances sharing the database
   * (call-limit.ts); `max` at least 2, a change's most.
   */
  readonly callLimit: CallWindow;
}

export const DEFAULT_RANK_SYNC_SETTINGS: Omit<RankSyncSettings, 'baseUrl'> = {
  timeoutMs: 10_000,
  leaseMs: 60_000,
  pollIntervalMs: 1_000,
  retry: { firstDelayMs: 30_000, maxDelayMs: 60 * 60 * 1000 },
  batch: 20,
  callLimit: { max: 300, windowMs: 60_000 },
};

/** The log methods the sync uses (pino's shape); nothing it logs carries an API key. */
export interface SyncLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface RankSyncDeps {
  readonly store: Pick<Store, 'db' | 'write'>;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: SyncLog;
  readonly settings: RankSyncSettings;
  readonly random?: () => number;
}

const errorText = (error: SyncError) => JSON.stringify(error);

export class RankSync {
  private readonly deps: RankSyncDeps;
  private readonly owner = `rank_sync_${randomBase62(12)}`;
  private readonly pause: Pause;
  private readonly inFlight = new Set<string>();
  private loopDone: Promise<void> = Promise.resolve();
  private stopping = false;
  private nudged = false;

  constructor(deps: RankSyncDeps) {
    this.deps = deps;
    if (deps.settings.callLimit.max < 2) throw new Error('the Open Cloud call limit must allow at least 2 calls, a change\'s most');
    this.pause = new Pause(deps.timer);
  }

  start(): this {
    this.loopDone = this.loop();
    return this;
  }

  /** Changes were just committed by this process: claim them now instead of at the next poll. */
  nudge(): void {
    this.nudged = true;
    this.pause.wake();
  }

  /** Stops claiming and lets the changes under way finish (their calls end within the timeout). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.pause.interrupt();
    await this.loopDone;
  }

  /** One round: claims the due changes and applies them. Returns how many it claimed. */
  async runOnce(): Promise<number> {
    return (await this.round()).claimed;
  }

  /**
   * Claims the due changes whose calls the key's window has room for, and applies them. Those it had no room for
   * are due again when it has: a round after them finds them not due, so the loop then waits its poll.
   */
  private async round(): Promise<{ claimed: number; deferred: number }> {
    const { store, clock, settings } = this.deps;
    const { changes, deferred } = await claimDueChanges(store, {
      now: clock.now(),
      limit: settings.batch,
      leaseMs: settings.leaseMs,
      owner: this.owner,
      calls: settings.callLimit,
    });
    if (this.stopping) {
      await releaseChanges(store.write, changes.map((change) => change.id), this.owner);
      return { claimed: 0, deferred };
    }
    await Promise.all(changes.map((change) => this.apply(change)));
    return { claimed: changes.length, deferred };
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let busy = false;
      this.nudged = false;
      try {
        const { claimed, deferred } = await this.round();
        busy = claimed + deferred > 0;
      } catch (err) {
        this.deps.log.error({ err }, 'rank sync could not claim changes');
      }
      if (this.stopping) break;
      if (!busy && !this.nudged) await this.pause.wait(this.deps.settings.pollIntervalMs, true);
    }
  }

  private async apply(change: ClaimedChange): Promise<void> {
    const { clock, settings, timer, log } = this.deps;
    this.inFlight.add(change.id);
    try {
      // Their calls were taken from the key's window when the change was claimed.
      const calls = roleCalls(change.fromRoleId, change.toRoleId);
      let failure: { call: RoleCall; outcome: CallOutcome } | null = null;
      for (const { call, roleId } of calls) {
        const outcome = await callRole(
          call,
          { baseUrl: settings.baseUrl, apiKey: change.apiKey, groupId: change.groupId, userId: change.gameUserId, roleId },
          settings.timeoutMs,
          timer,
        );
        // A member who no longer holds the old role has nothing to take.
        if (outcome.ok || (call === 'unassignRole' && outcome.status === 404)) continue;
        failure = { call, outcome };
        break;
      }
      const attempts = change.attempts + 1;
      const now = clock.now();
      if (failure === null) {
        await this.record(change, { status: 'applied', attempts, lastError: null, nextAttemptAt: now });
        return;
      }
      const { call, outcome } = failure;
      const lastError = errorText({ status: outcome.status, code: outcome.code, message: outcome.message });
      const context = { changeId: change.id, attempt: attempts, status: outcome.status, code: outcome.code };
      if (isFinal(call, outcome) || now >= change.expiresAt) {
        log.error(context, 'rank change refused by Open Cloud or out of retries: failed');
        await this.record(change, { status: 'failed', attempts, lastError, nextAttemptAt: now });
        return;
      }
      const delay = Math.max(retryDelayMs(settings.retry, attempts, this.deps.random), outcome.retryAfterMs ?? 0);
      log.warn(context, 'rank change not applied yet; will retry');
      await this.record(change, { status: 'pending', attempts, lastError, nextAttemptAt: Math.min(now + delay, change.expiresAt) });
    } catch (err) {
      // Anything unexpected leaves the change to its lease.
      log.error({ err, changeId: change.id }, 'rank change outcome could not be recorded');
    } finally {
      this.inFlight.delete(change.id);
    }
  }

  private async record(change: ClaimedChange, outcome: Omit<SyncOutcome, 'id' | 'owner' | 'at'>): Promise<void> {
    const at = this.deps.clock.now();
    await this.deps.store.write((trx) => writeOutcome(trx, { ...outcome, id: change.id, owner: this.owner, at }));
  }
}

export function startRankSync(deps: RankSyncDeps): RankSync {
  return new RankSync(deps).start();
}
