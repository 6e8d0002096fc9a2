/** What an idempotent operation is and comes to, shared by the strategies of both stores. */
import type { Transaction } from 'kysely';
import type { Database } from '../db/types.ts';
import { AppError, RefusalAfterWrites } from '../shared/errors.ts';
import type { StoredResponse } from './index.ts';

export { RefusalAfterWrites };

/** What an operation comes to: its response, or a refusal after writes. */
export type OperationResult = StoredResponse | RefusalAfterWrites;

/** An idempotent operation: it runs in the transaction its result is stored in. */
export type IdempotentOperation = (trx: Transaction<Database>) => Promise<OperationResult>;

export interface IdempotentOutcome {
  readonly response: StoredResponse;
  readonly replayed: boolean;
}

/** How a refusal is answered (its status and error body): given by the HTTP layer, which alone knows statuses. */
export type ErrorResponse = (error: AppError, requestId: string) => StoredResponse;

/** The response an operation's result is. */
export function responseOf(result: OperationResult, requestId: string, errorResponse: ErrorResponse): StoredResponse {
  return result instanceof RefusalAfterWrites ? errorResponse(result.refusal, requestId) : result;
}

/** A thrown 4xx refusal becomes a stored response; anything else (a 5xx, a key in progress) is not kept. */
export function storableFailure(error: unknown, requestId: string, errorResponse: ErrorResponse): StoredResponse | null {
  if (!(error instanceof AppError) || error.code === 'idempotency_request_in_progress') return null;
  const response = errorResponse(error, requestId);
  return response.status >= 500 ? null : response;
}
