/**
 * Reads with a cached API key (a route declares `useCachedKey`): the read's first statement checks the key's
 * credential (its precondition, db/precondition.ts) instead of a lookup before it. When the credential no longer
 * holds, the key is looked up (its refusal, or the actor as the key now stands) and the read runs again as that
 * actor, without a precondition.
 */
import type { FastifyRequest } from 'fastify';
import { PreconditionFailed, type Precondition } from '../db/precondition.ts';
import { credentialHolds } from '../keys/api-key.ts';
import type { Clock } from '../shared/clock.ts';
import type { ConfirmKey } from './route-auth.ts';

/** Runs `read` for `request`, given the precondition its first statement must check (none for a key looked up now). */
export type CachedKeyRead = <T>(request: FastifyRequest, read: (precondition: Precondition | undefined) => Promise<T>) => Promise<T>;

export function cachedKeyRead({ confirmKey, clock }: { readonly confirmKey: ConfirmKey; readonly clock: Clock }): CachedKeyRead {
  return async (request, read) => {
    const verified = request.verifiedKey;
    if (verified?.cached !== true) return read(undefined);
    try {
      return await read(credentialHolds(verified.credential, clock.now()));
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      await confirmKey(request);
      return read(undefined);
    }
  };
}
