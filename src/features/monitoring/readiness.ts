import type { Store } from '../../db/connect.ts';
import { pendingMigrations } from '../../db/migrate.ts';
import { pingDatabase } from './repository.ts';

export type Readiness =
  | { readonly ready: true }
  | { readonly ready: false; readonly reason: 'database_unavailable' }
  | { readonly ready: false; readonly reason: 'migrations_pending'; readonly pending: readonly string[] };

export interface ReadinessDeps {
  readonly store: Pick<Store, 'db' | 'dialect'>;
  /** How long the database has to answer before the instance counts as not ready. */
  readonly timeoutMs?: number;
}

export const DEFAULT_READINESS_TIMEOUT_MS = 2_000;

class Timeout extends Error {}

async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ready means: the database answers (within the timeout) and every migration this build knows is applied. An
 * instance started against a store that another, newer or older, deployment manages is taken out of rotation
 * instead of serving with a schema it does not expect.
 */
export function createReadinessCheck({ store, timeoutMs = DEFAULT_READINESS_TIMEOUT_MS }: ReadinessDeps) {
  return async function check(): Promise<Readiness> {
    let pending: string[];
    try {
      pending = await within(
        (async () => {
          await pingDatabase(store.db);
          return pendingMigrations(store);
        })(),
        timeoutMs,
      );
    } catch {
      // Whatever the failure (refused, timed out, closed), the answer is the same: not ready. The cause is for
      // the database's own monitoring; this answer is read by load balancers.
      return { ready: false, reason: 'database_unavailable' };
    }
    if (pending.length > 0) return { ready: false, reason: 'migrations_pending', pending };
    return { ready: true };
  };
}

export type ReadinessCheck = ReturnType<typeof createReadinessCheck>;
