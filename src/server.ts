import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { BackgroundThread } from './background/thread.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import type { Config } from './shared/config.ts';
import { openStore, type DatabaseTimeouts, type Store, type StoreOptions } from './db/connect.ts';
import { UnavailabilityCounts } from './db/unavailable.ts';
import { logFormatFor, loggerOptions } from './http/logging.ts';
import { startWebhookDispatcher, WebhookAttemptCounts } from './webhooks/runtime.ts';
import { startBackgroundJobs } from './runtime/jobs.ts';
import { DEFAULT_RANK_SYNC_SETTINGS, startRankSync } from './features/ranks/sync/sync.ts';
import { systemTimer } from './webhooks/timer.ts';
import { openMetricsWarning } from './features/monitoring/open-metrics.ts';
import { upgradeStore } from './runtime/upgrade.ts';

/** PostgreSQL connections of the webhook dispatcher (claims, results), apart from the API's pool. */
const DISPATCHER_POOL_SIZE = 2;

/** The serving process's waits for PostgreSQL (docs/CONFIGURATION.md). */
function databaseTimeouts(config: Config): DatabaseTimeouts {
  return {
    connectMs: config.databaseConnectTimeoutMs,
    statementMs: config.databaseStatementTimeoutMs,
    idleMs: config.databaseIdleTimeoutMs,
  };
}

/**
 * Applies pending migrations. On PostgreSQL they run on a connection of their own without the serving statement
 * timeout: a migration (an index built on a large table, another instance's migration lock waited for) may take
 * longer than any statement a request runs.
 */
async function upgrade(config: Config, store: Store): Promise<void> {
  if (store.dialect !== 'postgres') {
    await upgradeStore(store);
    return;
  }
  const migrating = openStore(config.databaseUrl, { poolSize: 2, timeouts: { connectMs: config.databaseConnectTimeoutMs } });
  try {
    await upgradeStore(migrating);
  } finally {
    await migrating.close();
  }
}

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly address: string;
  stop(): Promise<void>;
}

/** Applies pending migrations, builds the app, starts background jobs and listens. */
export async function startServer(config: Config, clock: Clock = systemClock): Promise<RunningServer> {
  // One thread for the work kept off the event loop: the SQLite checkpoints and the webhook sends.
  const backgroundThread = new BackgroundThread();
  const unavailable = new UnavailabilityCounts();
  const serving: StoreOptions = { timeouts: databaseTimeouts(config), onUnavailable: unavailable.report };
  const store = openStore(config.databaseUrl, {
    backgroundCheckpoints: true,
    backgroundThread,
    poolSize: config.databasePoolSize,
    ...serving,
  });
  try {
    await upgrade(config, store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const attempts = new WebhookAttemptCounts();
  const app = await buildApp({
    config,
    store,
    clock,
    logger: loggerOptions(config.logLevel, logFormatFor(process.stdout)),
    webhookAttempts: () => attempts.snapshot(),
    databaseErrors: () => unavailable.snapshot(),
  });
  unavailable.logTo(app.log);
  const jobs = startBackgroundJobs({ store, clock, config, log: app.log });
  // On PostgreSQL the dispatcher has connections of its own: its claims and results never wait in the pool's
  // queue behind API requests (under load, that wait made deliveries late by seconds). SQLite has one writer.
  const dispatcherStore = store.dialect === 'postgres' ? openStore(config.databaseUrl, { poolSize: DISPATCHER_POOL_SIZE, ...serving }) : store;
  const webhooks = startWebhookDispatcher({ store: dispatcherStore, clock, config, log: app.log, attempts, thread: backgroundThread });
  // Writes that enqueue deliveries (the API's, the timeout sweep's) wake the dispatcher once they commit
  // (src/webhooks/outbox.ts).
  // Rank changes go to the Roblox group the same way: a durable job, claimed under a lease (docs/ROBLOX.md).
  const rankSync = startRankSync({
    store: dispatcherStore,
    clock,
    timer: systemTimer,
    log: app.log,
    settings: {
      ...DEFAULT_RANK_SYNC_SETTINGS,
      // The outbox's lease and poll: one mechanism, one tuning.
      leaseMs: config.webhookTuning.leaseMs,
      pollIntervalMs: config.webhookTuning.pollIntervalMs,
      baseUrl: config.robloxApiUrl,
      retry: { ...DEFAULT_RANK_SYNC_SETTINGS.retry, firstDelayMs: config.robloxSyncRetryFirstDelayMs },
    },
  });
  store.afterCommit(() => {
    webhooks.nudge();
    rankSync.nudge();
  });
  const closeStores = async () => {
    if (dispatcherStore !== store) await dispatcherStore.close();
    await store.close();
  };
  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    jobs.stop();
    await rankSync.stop();
    await webhooks.stop(0);
    await app.close();
    await closeStores();
    throw error;
  }
  const metricsWarning = openMetricsWarning(config);
  if (metricsWarning !== null) app.log.warn({ host: config.host }, metricsWarning);
  let stopping: Promise<void> | undefined;
  return {
    app,
    store,
    address,
    stop() {
      // Stop accepting, let in-flight requests and webhook deliveries finish (or give those back), then close the database. Closing waits for every open
      // connection, and once closing Node no longer times requests out: a client stalled mid-request would hold
      // the shutdown forever. So after SHUTDOWN_TIMEOUT_SECONDS the connections still open are closed.
      stopping ??= (async () => {
        jobs.stop();
        const deadline = setTimeout(() => {
          app.log.warn(
            { shutdownTimeoutSeconds: config.shutdownTimeoutSeconds },
            'shutdown deadline reached: closing the remaining connections',
          );
          app.server.closeAllConnections();
        }, config.shutdownTimeoutSeconds * 1000);
        try {
          await Promise.all([app.close(), webhooks.stop(), rankSync.stop()]);
        } finally {
          clearTimeout(deadline);
        }
        await closeStores();
      })();
      return stopping;
    },
  };
}

export interface CaughtSignals {
  /** Resolves once SIGTERM or SIGINT has arrived (before or after this call) and the server has shut down cleanly. */
  stopOn(server: RunningServer): Promise<void>;
}

/**
 * Catches SIGTERM and SIGINT from now on: call it before starting the server, so that a signal arriving while it
 * starts (after it has said it listens, say) stops it cleanly instead of killing the process.
 */
export function catchSignals(): CaughtSignals {
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  return {
    async stopOn(server) {
      const signal = await signalled;
      server.app.log.info({ signal }, 'shutting down');
      await server.stop();
    },
  };
}
