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
