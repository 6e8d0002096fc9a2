/** Delays between attempts: they grow, and each is jittered so that failed deliveries do not retry in lockstep. */
export interface RetryPolicy {
  /** Delay after the first failure (before jitter); the first retry comes within this. */
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { firstDelayMs: 30_000, maxDelayMs: 60 * 60 * 1000 };

/**
 * Delay before the next attempt after `failedAttempts` failures (1 for the first): doubling from `firstDelayMs`,
 * capped at `maxDelayMs`, then scaled by a random factor in [0.5, 1] ("equal jitter").
 */
export function retryDelayMs(policy: RetryPolicy, failedAttempts: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 30);
  const base = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** exponent);
  return Math.round(base * (0.5 + random() * 0.5));
}

/** What becomes of a delivery after an attempt. */
export interface NextStep {
  /** delivered (acknowledged), pending again at `nextAttemptAt`, or failed (its delivery window has closed). */
  readonly outcome: 'delivered' | 'pending' | 'failed';
  readonly nextAttemptAt: number;
}

/**
 * The step after the `attempt`-th attempt (1 for the first), finished at `finishedAt`: a 2xx delivers; anything
 * else is retried after `retryDelayMs` (a 429's `retryAfterMs` when longer), the last retry when the window closes at `expiresAt`, and an attempt
 * finished after that gives up.
 */
export function afterAttempt(
  policy: RetryPolicy,
  attempt: {
    readonly status: number | null;
    readonly number: number;
    readonly finishedAt: number;
    readonly expiresAt: number;
    /** A 429's asked-for wait: the next attempt comes no sooner. */
    readonly retryAfterMs?: number;
  },
  random: () => number = Math.random,
): NextStep {
  const { status, finishedAt, expiresAt } = attempt;
  if (status !== null && status >= 200 && status < 300) return { outcome: 'delivered', nextAttemptAt: finishedAt };
  if (finishedAt >= expiresAt) return { outcome: 'failed', nextAttemptAt: finishedAt };
  const next = finishedAt + Math.max(retryDelayMs(policy, attempt.number, random), attempt.retryAfterMs ?? 0);
  return { outcome: 'pending', nextAttemptAt: Math.min(next, expiresAt) };
}
