import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import { DEFAULT_DISPATCHER_SETTINGS, startDispatcher, type Dispatcher, type DispatcherLog } from './dispatcher.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';
import { startThreadSender } from './sender-thread.js';

/**
 * The dispatcher of a serving instance, configured from the service's settings. Its sending (signatures, HTTP)
 * runs on a thread of its own, so deliveries take little from the event loop that serves the API.
 */
export function startWebhookDispatcher(deps: {
  readonly store: Pick<Store, 'db' | 'write' | 'dialect'>;
  readonly clock: Clock;
  readonly config: Config;
  readonly log: DispatcherLog;
}): Dispatcher {
  const { webhookTuning: tuning } = deps.config;
  return startDispatcher({
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
    sender: startThreadSender,
    settings: {
      ...DEFAULT_DISPATCHER_SETTINGS,
      allowPrivateNetworks: deps.config.webhookAllowPrivateNetworks,
      leaseMs: tuning.leaseMs,
      pollIntervalMs: tuning.pollIntervalMs,
      retry: { ...DEFAULT_RETRY_POLICY, firstDelayMs: tuning.retryFirstDelayMs },
    },
  });
}
