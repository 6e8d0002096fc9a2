import type { TestContext } from './app.ts';
import type { Fixture } from './fixtures.ts';

/** A change of an API key or its application, written straight to the database as another instance or the CLI would. */
export interface KeyChange {
  readonly name: string;
  /** What the next request with the key is refused with. */
  readonly status: number;
  readonly code: string;
  readonly apply: (ctx: TestContext, fixture: Fixture) => Promise<unknown>;
}

export interface KeyChangeOptions {
  /** The route's scope, and the scopes the key is left with (without it). */
  readonly scope: string;
  readonly scopesLeft: readonly string[];
  /** The route's feature (default `activity`), turned off by one change; null when the route needs none. */
  readonly feature?: 'activity' | 'applications' | null;
}

/**
 * The five changes a request with a cached key must see at once: the fixture's test key revoked, expiring within
 * the next second, left with `scopesLeft` only (so without `scope`, the route's), and its application's feature
 * turned off (when the route has one) or its approval withdrawn.
 */
export function keyChanges({ scope, scopesLeft, feature = 'activity' }: KeyChangeOptions): readonly KeyChange[] {
  const all: Array<KeyChange | null> = [
    {
      name: 'revoked',
      status: 401,
      code: 'unauthenticated',
      apply: (c, f) => c.store.db.updateTable('api_keys').set({ revoked: 1 }).where('id', '=', f.keys.test.id).execute(),
    },
    {
      name: 'expired',
      status: 401,
      code: 'unauthenticated',
      apply: (c, f) =>
        c.store.db.updateTable('api_keys').set({ expires_at: c.clock.now() + 500 }).where('id', '=', f.keys.test.id).execute(),
    },
    {
      name: `stripped of ${scope}`,
      status: 403,
      code: 'insufficient_scope',
      apply: (c, f) =>
        c.store.db.updateTable('api_keys').set({ scopes: JSON.stringify(scopesLeft) }).where('id', '=', f.keys.test.id).execute(),
    },
    feature === null
      ? null
      : {
          name: `of an application whose ${feature} feature is turned off`,
          status: 403,
          code: 'feature_disabled',
          apply: (c, f) =>
            c.store.db
              .updateTable('applications')
              .set({ features: JSON.stringify({ activity: feature !== 'activity', applications: feature !== 'applications' }) })
              .where('id', '=', f.ids.applicationId)
              .execute(),
        },
    {
      name: 'of an application no longer approved',
      status: 403,
      code: 'application_not_approved',
      apply: (c, f) => c.store.db.updateTable('applications').set({ approved: 0 }).where('id', '=', f.ids.applicationId).execute(),
    },
  ];
  return all.filter((change): change is KeyChange => change !== null);
}
