/**
 * The sending service of the background thread (see sender-thread.ts): signs and POSTs the deliveries the
 * dispatcher hands it, and hands back each outcome. It owns the HTTP connections to the endpoints; it never
 * touches the database.
 */
import type { MessagePort } from 'node:worker_threads';
import type { OutcomeBatch, SendBatch, SenderThreadData } from './sender-protocol.ts';
import { startInlineSender } from './sender.ts';

/** Sends what arrives on `port` until the serving thread closes it; then drops what is on the wire. */
export function serveSends(port: MessagePort, options: SenderThreadData): void {
  const sender = startInlineSender(options);
  let outcomes: OutcomeBatch['outcomes'][number][] = [];
  let scheduled = false;

  function reply(): void {
    scheduled = false;
    const batch: OutcomeBatch = { outcomes };
    outcomes = [];
    port.postMessage(batch);
  }

  port.on('message', (batch: SendBatch) => {
    for (const { ref, ...request } of batch.requests) {
      void sender.send(request).then((outcome) => {
        outcomes.push({ ref, outcome });
        // Outcomes that arrive in the same turn go back in one message.
        if (!scheduled) {
          scheduled = true;
          setImmediate(reply);
        }
      });
    }
  });
  port.on('close', () => void sender.close());
}
