import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor, ApiKeyActor, Feature, Scope, UserActor } from '../actor.ts';
import { AppError } from '../errors.ts';
import type { ReusedKey } from '../keys/credential.ts';
import type { Authenticator } from './authentication.ts';
import { CORRELATION_ID_RE } from './headers.ts';
import type { RateLimiter } from './rate-limit.ts';

/** Declared on each route (`config.auth`); checked in one hook, and turned into the route's OpenAPI security. */
export type RouteAuth =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'apiKey';
      readonly scope?: Scope;
      readonly feature?: Feature;
      /**
       * The route confirms the key in its own statement (see Authenticator.apiKeyOrReused and
       * `request.reusedKey`), so a recently verified key is not looked up again first.
       */
      readonly reuseVerifiedKey?: boolean;
    }
  | { readonly kind: 'user' };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    actor: Actor | null;
    correlationId: string;
    /** Set when `actor` was reused without a lookup: the route must confirm it (in its statement, or by `confirm`). */
    reusedKey: ConfirmableKey | null;
  }
}

/** A reused key: the condition its statement checks, and a lookup that confirms it (and its rights) otherwise. */
export interface ConfirmableKey extends ReusedKey {
  confirm(): Promise<ApiKeyActor>;
}

type ApiKeyAuth = Extract<RouteAuth, { kind: 'apiKey' }>;

/** The 403 an API key's rights give on this route, if any. */
function refusal(actor: ApiKeyActor, auth: ApiKeyAuth): AppError | null {
  if (auth.feature && actor.application.features[auth.feature] !== true) {
    return new AppError('feature_disabled', `The ${auth.feature} feature is not enabled for this application.`);
  }
  if (auth.scope && !actor.scopes.includes(auth.scope)) {
    return new AppError('insufficient_scope', `This API key lacks the ${auth.scope} scope.`, {
      requiredScope: auth.scope,
    });
  }
  return null;
}


function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export function registerRouteAuth(
  app: FastifyInstance,
  authenticator: Authenticator,
  rateLimiter: RateLimiter | null,
): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('correlationId', '');
  app.decorateRequest('reusedKey', null);

  // Authentication (401) and the checks that need only the credential (403) run before the body is read,
  // so an unauthenticated caller learns nothing about validation.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const auth = request.routeOptions.config.auth;
    if (!auth || auth.kind === 'none') return;
    if (auth.kind === 'user') {
      const selector = singleHeader(request.headers['x-service-workspace-id']);
      request.actor = await authenticator.user(request.headers.authorization, selector);
      await rateLimiter?.check(request, reply);
      return;
    }
    const authorization = request.headers.authorization;
    let actor: ApiKeyActor;
    let reused: ReusedKey | null = null;
    if (auth.reuseVerifiedKey === true) {
      ({ actor, reused } = await authenticator.apiKeyOrReused(authorization));
      // Never refuse on reused rights: they may have been granted since.
      if (reused && refusal(actor, auth)) {
        actor = await authenticator.apiKey(authorization);
        reused = null;
      }
    } else {
      actor = await authenticator.apiKey(authorization);
    }
    request.actor = actor;
    await rateLimiter?.check(request, reply);
    const refused = refusal(actor, auth);
    if (refused) throw refused;
    if (reused) {
      request.reusedKey = {
        actor: reused.actor,
        credential: reused.credential,
        async confirm() {
          const fresh = await authenticator.apiKey(authorization);
          const refusedNow = refusal(fresh, auth);
          if (refusedNow) throw refusedNow;
          request.actor = fresh;
          request.reusedKey = null;
          return fresh;
        },
      };
    }
  });

  app.addHook('preValidation', async (request) => {
    const auth = request.routeOptions.config.auth;
    if (!auth || auth.kind === 'none') return;
    const raw = request.headers['x-correlation-id'];
    if (raw === undefined) {
      request.correlationId = request.id;
      return;
    }
    const value = singleHeader(raw) ?? '';
    if (!CORRELATION_ID_RE.test(value)) {
      throw new AppError('validation_failed', 'X-Correlation-Id must be 1 to 128 visible ASCII characters.', {
        issues: [{ path: 'headers.x-correlation-id', message: 'must be 1 to 128 visible ASCII characters' }],
      });
    }
    request.correlationId = value;
  });
}

export function apiKeyActor(request: FastifyRequest): ApiKeyActor {
  const actor = request.actor;
  if (actor?.kind !== 'apiKey') throw new AppError('unauthenticated', 'A valid API key is required.');
  return actor;
}

/** The request's API key actor, confirmed by a lookup first if it was reused without one. */
export async function confirmedApiKeyActor(request: FastifyRequest): Promise<ApiKeyActor> {
  return request.reusedKey ? request.reusedKey.confirm() : apiKeyActor(request);
}

export function userActor(request: FastifyRequest): UserActor {
  const actor = request.actor;
  if (actor?.kind !== 'user') throw new AppError('unauthenticated', 'A valid dashboard token is required.');
  return actor;
}

export function headerValue(request: FastifyRequest, name: string): string | undefined {
  return singleHeader(request.headers[name]);
}
