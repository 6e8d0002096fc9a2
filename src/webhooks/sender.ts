import { Webhook } from 'standardwebhooks';
import { createDestinationClient, noAnswer, type DestinationOptions, type PostOutcome } from './destination.ts';
import type { Timer } from './timer.ts';

/** What sending one delivery needs: where, and what to sign. */
export interface SendRequest {
  readonly url: string;
  readonly eventId: string;
  /** The endpoint's `whsec_` secret: used to sign, never logged. */
  readonly secret: string;
  readonly body: string;
}

/**
 * Signs and POSTs deliveries. It never rejects: whatever goes wrong is an outcome without a status. The
 * dispatcher decides what is sent and when; a sender only does the sending, on the event loop or on a thread of
 * its own (sender-thread.ts).
 */
export interface Sender {
  send(request: SendRequest): Promise<PostOutcome>;
  /** Drops what is still on the wire (its answer is no longer wanted) and lets go of the connections. */
  close(): Promise<void>;
}

export type SenderFactory = (options: DestinationOptions) => Sender;

// Signers by secret: decoding a secret is done once per endpoint, not per delivery. Bounded all the same.
const MAX_SIGNERS = 1_000;

/** A sender on the calling thread's event loop; its requests' deadlines run on `timer` when given. */
export function startInlineSender(options: DestinationOptions, timer?: Timer): Sender {
  const client = createDestinationClient(options, timer);
  const signers = new Map<string, Webhook>();

  function signer(secret: string): Webhook {
    let webhook = signers.get(secret);
    if (!webhook) {
      if (signers.size >= MAX_SIGNERS) signers.clear();
      webhook = new Webhook(secret);
      signers.set(secret, webhook);
    }
    return webhook;
  }

  return {
    async send({ url, eventId, secret, body }) {
      try {
        // Receivers compare the signed timestamp with their own wall clock, so it is the wall clock's.
        const timestamp = new Date();
        const signature = signer(secret).sign(eventId, timestamp, body);
        return await client.post(
          url,
          {
            'webhook-id': eventId,
            'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
            'webhook-signature': signature,
          },
          body,
        );
      } catch (err) {
        return noAnswer(err instanceof Error ? err.message : 'failed');
      }
    },
    close() {
      client.close();
      signers.clear();
      return Promise.resolve();
    },
  };
}
