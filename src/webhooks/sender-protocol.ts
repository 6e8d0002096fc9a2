import type { DestinationOptions, PostOutcome } from './destination.ts';
import type { SendRequest } from './sender.ts';

/** What the sending thread starts with. */
export type SenderThreadData = DestinationOptions;

/** Deliveries to send, handed to the sending thread together (one message per turn of the event loop). */
export interface SendBatch {
  readonly requests: readonly (SendRequest & { readonly ref: number })[];
}

/** Outcomes from the sending thread, by the `ref` each request came with. */
export interface OutcomeBatch {
  readonly outcomes: readonly { readonly ref: number; readonly outcome: PostOutcome }[];
}
