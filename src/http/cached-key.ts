/**
 * Requests with a cached API key (a route declares `useCachedKey`): the request's first statement checks the key's
 * credential (its precondition, db/precondition.ts) instead of a lookup before it. When the credential no longer
 * holds, nothing counts: the key is looked up (its refusal, or the actor as the key now stands) and the request
 * runs once more as that actor, without a precondition. The write pipeline (http/idempotency.ts) and the hot reads
 * share this.
 */
import type { FastifyRequest } from 'fastify';
import { PreconditionFailed, type Precondition } from '../db/precondition.ts';
import type { CallPrecondition } from '../idempotency/index.ts';
import { credentialHolds } from '../keys/api-key.ts';
import type { Clock } from '../shared/clock.ts';
import type { ConfirmKey } from './route-auth.ts';

/** What the request's first statement checks of its key at `now`: none for a key looked up for this request. */
export function cachedKeyPrecondition(request: FastifyRequest): CallPrecondition | undefined {
  const verified = request.verifiedKey;
  return verified?.cached === true ? (now) => credentialHolds(verified.credential, now) : undefined;
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

/** Runs `read` for `request`, given the precondition its first statement must check (none for a key looked up now). */
export type CachedKeyRead = <T>(request: FastifyRequest, read: (precondition: Precondition | undefined) => Promise<T>) => Promise<T>;

export function cachedKeyRead({ confirmKey, clock }: { readonly confirmKey: ConfirmKey; readonly clock: Clock }): CachedKeyRead {
  return (request, read) => withConfirmedKey(request, confirmKey, () => read(cachedKeyPrecondition(request)?.(clock.now())));
}
