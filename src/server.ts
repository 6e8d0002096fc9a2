import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { openStore, type Store } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { startBackgroundJobs } from './jobs.js';

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly address: string;
  stop(): Promise<void>;
}

/** Applies pending migrations, builds the app, starts background jobs and listens. */
export async function startServer(config: Config, clock: Clock = systemClock): Promise<RunningServer> {
  const store = openStore(config.databaseUrl, { backgroundCheckpoints: true });
  try {
    await migrateToLatest(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const app = await buildApp({ config, store, clock });
  const jobs = startBackgroundJobs({ store, clock, config, log: app.log });
  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    jobs.stop();
    await app.close();
    await store.close();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    app,
    store,
    address,
    stop() {
      // Stop accepting, let in-flight requests finish, then close the database.
      stopping ??= (async () => {
        jobs.stop();
        await app.close();
        await store.close();
      })();
      return stopping;
    },
  };
}

/** Resolves once SIGTERM or SIGINT arrives and the server has shut down cleanly. */
export function stopOnSignals(server: RunningServer): Promise<void> {
  return new Promise((resolve, reject) => {
    const onSignal = (signal: NodeJS.Signals) => {
      server.app.log.info({ signal }, 'shutting down');
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      server.stop().then(resolve, reject);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
