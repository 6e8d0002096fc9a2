/**
 * A write made from Discord goes through the idempotency service (src/idempotency/), keyed on the interaction's
 * id under the application's scope: a second delivery of one interaction gets the first one's stored answer and
 * asks, cancels or decides nothing again.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Idempotency } from '../../idempotency/index.ts';
import { AppError } from '../../shared/errors.ts';
import type { Invocation } from './invocation.ts';
import type { Refusal } from './refusals.ts';

export type WriteOutcome<Data> = { readonly ok: true; readonly data: Data } | { readonly ok: false; readonly refusal: Refusal };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A stored answer read back: `{ data }`, or the error envelope of a refusal. */
function outcomeOf<Data>(body: unknown): WriteOutcome<Data> {
  if (isRecord(body) && 'data' in body) return { ok: true, data: body.data as Data };
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  return {
    ok: false,
    refusal: {
      code: typeof error.code === 'string' ? error.code : 'internal_error',
      message: typeof error.message === 'string' ? error.message : '',
      ...(isRecord(error.details) ? { details: error.details } : {}),
    },
  };
}

export function createDiscordWrites(idempotency: Idempotency) {
  /**
   * Runs `operation` once per interaction: `what` (the command or button and its options) is the request the key
   * stands for, so a different request under the same interaction id is refused.
   */
  return async function write<Data>(
    invocation: Invocation,
    what: unknown,
    operation: (trx: Transaction<Database>) => Promise<Data>,
  ): Promise<WriteOutcome<Data>> {
    try {
      const outcome = await idempotency.run(
        {
          scope: `discord:${invocation.applicationId}`,
          key: invocation.interactionId,
          method: 'POST',
          path: `/v1/discord/applications/${invocation.applicationId}/interactions`,
          body: what,
          requestId: invocation.requestId,
        },
        async (trx) => ({ status: 200, body: { data: await operation(trx) } }),
      );
      return outcomeOf<Data>(outcome.response.body);
    } catch (error) {
      if (error instanceof AppError) {
        return { ok: false, refusal: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
      }
      throw error;
    }
  };
}

export type DiscordWrites = ReturnType<typeof createDiscordWrites>;
