import type { BackgroundThread } from '../background/thread.ts';
import type { Clock } from '../shared/clock.ts';
import type { Config } from '../shared/config.ts';
import type { Store } from '../db/store.ts';
import { DEFAULT_DISPATCHER_SETTINGS, startDispatcher, type Dispatcher, type DispatcherLog } from './dispatcher.ts';
import type { AttemptRecord } from './repository.ts';
import { DEFAULT_RETRY_POLICY } from './retry.ts';
import { startThreadSender } from './sender-thread.ts';
import { systemTimer } from './timer.ts';

/** Results as the attempts metric labels them: a failed attempt that will be retried is `retrying`. */
const RESULT_OF: Record<AttemptRecord['outcome'], WebhookAttemptResult> = {
  delivered: 'delivered',
  pending: 'retrying',
  failed: 'failed',
};
export type WebhookAttemptResult = 'delivered' | 'retrying' | 'failed';

/** The delivery attempts of this instance's dispatcher since it started, by result. */
export class WebhookAttemptCounts {
  private readonly counts: Record<WebhookAttemptResult, number> = { delivered: 0, retrying: 0, failed: 0 };

  add(outcome: AttemptRecord['outcome']): void {
    this.counts[RESULT_OF[outcome]] += 1;
  }

  snapshot(): Readonly<Record<WebhookAttemptResult, number>> {
    return { ...this.counts };
  }
}

/**
 * The dispatcher of a serving instance, configured from the service's settings. Its sending (signatures, HTTP)
 * runs on the background thread, so deliveries take little from the event loop that serves the API.
 */
export function startWebhookDispatcher(deps: {
  readonly store: Pick<Store, 'db' | 'write' | 'dialect'>;
  readonly clock: Clock;
  readonly config: Config;
  readonly log: DispatcherLog;
  /** Counts every attempt's result, for the metrics. */
  readonly attempts?: WebhookAttemptCounts;
  /** Where the sending runs, shared with the process's other background work (default: a thread of its own). */
  readonly thread?: BackgroundThread;
}): Dispatcher {
  const { webhookTuning: tuning } = deps.config;
  const { attempts, thread } = deps;
  return startDispatcher({
    store: deps.store,
    clock: deps.clock,
    timer: systemTimer,
    log: deps.log,
    sender: (options) => startThreadSender(options, thread),
    ...(attempts ? { onAttempt: (outcome: AttemptRecord['outcome']) => attempts.add(outcome) } : {}),
    settings: {
      ...DEFAULT_DISPATCHER_SETTINGS,
      allowPrivateNetworks: deps.config.webhookAllowPrivateNetworks,
      leaseMs: tuning.leaseMs,
      pollIntervalMs: tuning.pollIntervalMs,
      retry: { ...DEFAULT_RETRY_POLICY, firstDelayMs: tuning.retryFirstDelayMs },
    },
  });
}
