/**
 * What a request assumes of the database, checked by its first statement rather than by a statement of its own
 * (the credential of an API key verified within the last minute, see keys/api-key.ts). The statement selects it as
 * a column (`holdsColumn`); when it does not hold, the request has read or written nothing that counts
 * (`PreconditionFailed`), and its caller finds out why (for a key, by looking it up) and runs it again.
 */
import { sql, type RawBuilder } from 'kysely';

/** SQL, true when what the request assumes holds. */
export type Precondition = RawBuilder<boolean>;

/** Thrown when a request's precondition does not hold: nothing it read or wrote counts. */
export class PreconditionFailed extends Error {
  constructor() {
    super("the request's precondition does not hold");
  }
}

/** The select-list entry `, <precondition> as holds`, or nothing without a precondition. */
export function holdsColumn(precondition: Precondition | undefined): RawBuilder<unknown> {
  return precondition === undefined ? sql`` : sql`, ${precondition} as holds`;
}

/** Throws PreconditionFailed when a precondition was given and the statement's row says it does not hold. */
export function checkHolds(precondition: Precondition | undefined, row: { readonly holds?: unknown } | undefined): void {
  if (precondition !== undefined && !row?.holds) throw new PreconditionFailed();
}
