import type { Clock } from '../shared/clock.ts';
import type { Config } from '../shared/config.ts';
import type { Executor } from '../db/types.ts';
import { createApiKeyAuthenticator, type ApiKeyAuthenticator } from './keys/api-key.ts';
import { createDashboardAuthenticator, type DashboardAuthenticator } from './dashboard-auth.ts';

/**
 * Who a request's bearer token is: an API key (game servers, the chat bot; see src/auth/keys/api-key.ts) or a dashboard
 * user's token (see dashboard-auth.ts). The route hook (route-auth.ts) reads the token from the `Authorization`
 * header and picks by the route's `auth`.
 */
export interface Authenticator extends ApiKeyAuthenticator, DashboardAuthenticator {}

export interface AuthenticatorDeps {
  readonly db: Executor;
  readonly clock: Clock;
  readonly config: Pick<Config, 'jwtSecret' | 'jwtJwksUrl' | 'jwtIssuer' | 'jwtAudience' | 'dashboardSigningKey'>;
}

export function createAuthenticator({ db, clock, config }: AuthenticatorDeps): Authenticator {
  return { ...createApiKeyAuthenticator({ db, clock }), ...createDashboardAuthenticator({ db, clock, config }) };
}
