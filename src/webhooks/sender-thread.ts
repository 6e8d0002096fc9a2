import { BackgroundThread, type BackgroundService, type RunningService } from '../background/thread.ts';
import { noAnswer, type DestinationOptions, type PostOutcome } from './destination.ts';
import type { OutcomeBatch, SendBatch, SenderThreadData } from './sender-protocol.ts';
import type { SendRequest, Sender } from './sender.ts';

/** The sending service, run on the background thread by sender-worker.ts. */
const SENDER: BackgroundService<SenderThreadData> = {
  module: new URL('./sender-worker.ts', import.meta.url).href,
  entry: 'serveSends',
};

/**
 * A sender whose signing, HTTP requests and answers run on the background thread (background/thread.ts), beside
 * the event loop that serves the API: a busy instance's deliveries then cost its requests little more than the
 * outbox rows and the claims. The sending service starts on the first delivery; if the thread dies, what it had
 * on the wire fails (to be retried) and the next delivery starts the service again.
 */
export function startThreadSender(options: DestinationOptions, thread = new BackgroundThread()): Sender {
  const waiting = new Map<number, (outcome: PostOutcome) => void>();
  let service: RunningService | null = null;
  let nextRef = 0;
  let batch: SendBatch['requests'][number][] = [];
  let closed = false;

  function failWaiting(error: string): void {
    const outcome = noAnswer(error);
    for (const resolve of waiting.values()) resolve(outcome);
    waiting.clear();
  }

  function sending(): RunningService {
    if (service) return service;
    const started = thread.start(SENDER, options, {
      onMessage(message) {
        for (const { ref, outcome } of (message as OutcomeBatch).outcomes) {
          waiting.get(ref)?.(outcome);
          waiting.delete(ref);
        }
      },
      onExit() {
        if (service === started) service = null;
        failWaiting('the sending thread stopped');
      },
    });
    service = started;
    return started;
  }

  function flush(): void {
    const requests = batch;
    batch = [];
    // Closing already answered whatever was waiting.
    if (requests.length === 0 || closed) return;
    sending().port.postMessage({ requests } satisfies SendBatch);
  }

  return {
    send(request: SendRequest): Promise<PostOutcome> {
      if (closed) return Promise.resolve(noAnswer('the sender is closed'));
      const ref = nextRef++;
      // Everything the dispatcher launches in one turn goes over in one message.
      if (batch.length === 0) queueMicrotask(flush);
      batch.push({ ref, url: request.url, eventId: request.eventId, secret: request.secret, body: request.body });
      return new Promise((resolve) => waiting.set(ref, resolve));
    },
    async close() {
      closed = true;
      const running = service;
      service = null;
      failWaiting('the sender is closed');
      await running?.close();
    },
  };
}
