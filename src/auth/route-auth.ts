import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, ApiKeyActor, ChatContext, Feature, KeyCredential, Scope, UserActor } from '../shared/actor.ts';
import { AppError, unauthenticated } from '../shared/errors.ts';
import { API_KEY_PREFIX, PreconditionFailed } from './keys/api-key.ts';
import type { Clock } from '../shared/clock.ts';
import type { Authenticator } from './authentication.ts';

/** Declared on each route (`config.auth`); checked in one hook, and turned into the route's OpenAPI security. */
export type RouteAuth =
  | {
      readonly kind: 'none';
      /** The route answers with `meta`: `X-Correlation-Id` is read (400 when malformed) as on authenticated routes. */
      readonly correlationId?: boolean;
      /** The route reads or writes the database, so it answers 503 `service_unavailable` while it is unreachable. */
      readonly database?: boolean;
    }
  | {
      readonly kind: 'apiKey';
      readonly scope?: Scope;
      readonly feature?: Feature;
      /**
       * Only on a route whose handler checks the key's credential in its first statement (below, "A cached key confirmed"):
       * the write pipeline (in the statement that takes the Idempotency-Key, or the known write's) and the hot
       * reads. A key verified within the last minute is then used from the cache, not looked up again first
       * (Authenticator.verifiedApiKey).
       */
      readonly useCachedKey?: boolean;
      /**
       * A member's dashboard token is accepted too (a bearer credential that is not an API key): then the
       * caller is a user actor, selected and checked as on dashboard routes, and neither scope nor feature applies.
       */
      readonly orDashboardToken?: boolean;
    }
  | { readonly kind: 'user' };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyInstance {
    /** See ConfirmKey: the error handler confirms a cached key before it answers a refusal. */
    confirmKey: ConfirmKey;
  }
  interface FastifyRequest {
    actor: Actor | null;
    /**
     * Set on routes that declare `useCachedKey`: the key's credential, for the write's statements to check, and
     * whether it came from the cache (then the write confirms it: the known write's statement or the one that
     * takes the Idempotency-Key checks it; when it no longer holds, a lookup, see ConfirmKey).
     */
    verifiedKey: VerifiedKey | null;
  }
}

/** The key a request was authenticated with, on a route that may use a cached key. */
export interface VerifiedKey {
  readonly credential: KeyCredential;
  /** True when the key was not looked up for this request. */
  readonly cached: boolean;
}

/**
 * Confirms a request's cached key by a lookup (`request.actor` then is the actor that lookup gives, and the key
 * counts as looked up), or throws its refusal: called when the key's credential no longer holds
 * (below, "A cached key confirmed"), and by the error handler before it answers another refusal.
 */
export type ConfirmKey = (request: FastifyRequest) => Promise<void>;

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

const BEARER_RE = /^Bearer ([^\s]+)$/i;

/** The token of an `Authorization: Bearer <token>` header; 401 when there is none. */
function bearerToken(header: string | string[] | undefined): string {
  if (typeof header !== 'string') throw unauthenticated();
  const token = BEARER_RE.exec(header)?.[1];
  if (!token) throw unauthenticated();
  return token;
}

/** A header's value as one string: a header sent more than once is its values joined, as HTTP reads them. */
function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The rate limit the hook applies once it knows the caller (the HTTP glue's, http/rate-limit.ts). */
export interface CallerRateLimit {
  check(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** Registers the hook that authenticates every route as it declares (`config.auth`); returns how to confirm a cached key. */
export function registerRouteAuth(
  app: FastifyInstance,
  authenticator: Authenticator,
  rateLimiter: CallerRateLimit | null,
): ConfirmKey {
  app.decorateRequest('actor', null);
  app.decorateRequest('verifiedKey', null);

  // Authentication (401) and the checks that need only the credential (403) run before the body is read,
  // so an unauthenticated caller learns nothing about validation.
  app.addHook('onRequest', async (request, reply) => {
    const auth = request.routeOptions.config.auth;
    if (!auth || auth.kind === 'none') return;
    const token = bearerToken(request.headers.authorization);
    if (auth.kind === 'user' || (auth.orDashboardToken === true && !token.startsWith(API_KEY_PREFIX))) {
      const selector = singleHeader(request.headers['x-service-workspace-id']);
      request.actor = await authenticator.user(token, selector);
      await rateLimiter?.check(request, reply);
      return;
    }
    if (auth.useCachedKey !== true) {
      const actor = await authenticator.apiKey(token);
      request.actor = actor;
      await rateLimiter?.check(request, reply);
      const refused = refusal(actor, auth);
      if (refused) throw refused;
      return;
    }
    let verified = await authenticator.verifiedApiKey(token, true);
    // Never refuse on cached rights: they may have been granted since.
    if (verified.cached && refusal(verified.actor, auth)) {
      verified = await authenticator.verifiedApiKey(token, false);
    }
    const actor = verified.actor;
    request.actor = actor;
    await rateLimiter?.check(request, reply);
    const refused = refusal(actor, auth);
    if (refused) throw refused;
    request.verifiedKey = verified;
  });

  const confirmKey: ConfirmKey = async (request) => {
    const auth = request.routeOptions.config.auth;
    if (auth?.kind !== 'apiKey') return;
    // Looked up now, whatever the lookup finds: a refusal it throws is not confirmed again by the error handler.
    request.verifiedKey = null;
    const fresh = await authenticator.apiKey(bearerToken(request.headers.authorization));
    const refused = refusal(fresh, auth);
    if (refused) throw refused;
    request.actor = fresh;
  };
  app.decorate('confirmKey', confirmKey);
  return confirmKey;
}

export function apiKeyActor(request: FastifyRequest): ApiKeyActor {
  return asApiKeyActor(request.actor);
}

/** The caller when it is an API key's (401 otherwise). */
export function asApiKeyActor(actor: Actor | null): ApiKeyActor {
  if (actor?.kind !== 'apiKey') throw unauthenticated('A valid API key is required.');
  return actor;
}

/** The caller of a route that takes an API key or a member's dashboard token (`orDashboardToken`). */
export function readerActor(request: FastifyRequest): Actor {
  const actor = request.actor;
  if (actor === null) throw unauthenticated();
  return actor;
}

export function userActor(request: FastifyRequest): UserActor {
  const actor = request.actor;
  if (actor?.kind !== 'user') throw unauthenticated('A valid dashboard token is required.');
  return actor;
}

/** A request header's value as one string (see singleHeader); undefined when it was not sent. */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  return singleHeader(request.headers[name]);
}

/**
 * The acting chat user's headers, as every operation of the acting chat user reads them (after its schema, which
 * spreads the chat headers' schema, required both).
 */
export function chatContext(request: FastifyRequest): ChatContext {
  return {
    guildId: headerValue(request, 'x-chat-guild-id') ?? '',
    actingChatUserId: headerValue(request, 'x-acting-chat-user-id') ?? '',
  };
}

// ---------------------------------------------------------------------------------------------------------
// A cached key confirmed
// ---------------------------------------------------------------------------------------------------------

/*
 * Requests with a cached API key (a route declares `useCachedKey`): the request's first statement checks the key's
 * credential (its precondition, see auth/keys/api-key.ts) instead of a lookup before it. When the credential no longer
 * holds, nothing counts: the key is looked up (its refusal, or the actor as the key now stands) and the request
 * runs once more as that actor, without a precondition. The write pipeline (http/write-pipeline.ts) and the hot reads
 * share this.
 */

/** The credential the request's first statement checks of its key: none for a key looked up for this request. */
export function cachedKeyCredential(request: FastifyRequest): KeyCredential | undefined {
  const verified = request.verifiedKey;
  return verified?.cached === true ? verified.credential : undefined;
}

/**
 * Runs `attempt`; when its first statement finds the cached key's credential no longer holds, confirms the key
 * (its refusal, thrown; or `request.actor` as the key now stands) and runs `attempt` once more, told so.
 */
export async function withConfirmedKey<T>(
  request: FastifyRequest,
  confirmKey: ConfirmKey,
  attempt: (confirmed: boolean) => Promise<T>,
): Promise<T> {
  try {
    return await attempt(false);
  } catch (error) {
    if (!(error instanceof PreconditionFailed)) throw error;
    await confirmKey(request);
    return attempt(true);
  }
}

/**
 * Runs `read` as the request's caller. A caller whose key came from the cache carries it as unconfirmed
 * (shared/actor.ts), for the read's first statement to check; after a lookup, the caller as the key now stands.
 */
export type CachedKeyRead = <T>(request: FastifyRequest, read: (actor: Actor) => Promise<T>) => Promise<T>;

export function cachedKeyRead({ confirmKey, clock }: { readonly confirmKey: ConfirmKey; readonly clock: Clock }): CachedKeyRead {
  return (request, read) =>
    withConfirmedKey(request, confirmKey, () => {
      const actor = readerActor(request);
      const credential = cachedKeyCredential(request);
      if (credential === undefined || actor.kind !== 'apiKey') return read(actor);
      // A copy for this request: the cached actor itself is shared and never carries the check.
      return read({ ...actor, unconfirmedKey: { credential, at: clock.now() } });
    });
}
