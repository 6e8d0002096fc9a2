import { Worker } from 'node:worker_threads';
import { noAnswer, type DestinationOptions, type PostOutcome } from './destination.ts';
import type { OutcomeBatch, SendBatch, SenderThreadData } from './sender-protocol.ts';
import type { SendRequest, Sender } from './sender.ts';

/**
 * The sending thread holds its connections and the deliveries on the wire (at most the dispatcher's concurrency,
 * each a body of up to a few hundred kilobytes), so its old generation stays small; the cap leaves room for a full
 * set of large bodies. Its young generation is where each request's and answer's garbage goes. At 12 MB (4 MB
 * semi-spaces) a backlog of 30,000 deliveries took 282 scavenges and 250 ms of pauses, against 169 scavenges and
 * 150 ms at 24 MB: about 3 µs more per delivery of about 200, for a peak resident memory about 9 MB lower while
 * deliveries flow (docs/ARCHITECTURE.md, "Memory"). At 2 MB it took 990 scavenges and a fifth more of the thread's
 * CPU.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 12 };

/**
 * A sender whose signing, HTTP requests and answers run on a worker thread, beside the event loop that serves the
 * API: a busy instance's deliveries then cost its requests little more than the outbox rows and the claims. The
 * thread starts on the first delivery; if it dies, what it had on the wire fails (to be retried) and the next
 * delivery starts a new one.
 */
export function startThreadSender(options: DestinationOptions): Sender {
  const waiting = new Map<number, (outcome: PostOutcome) => void>();
  let worker: Worker | null = null;
  let nextRef = 0;
  let batch: SendBatch['requests'][number][] = [];
  let closed = false;

  function failWaiting(error: string): void {
    const outcome = noAnswer(error);
    for (const resolve of waiting.values()) resolve(outcome);
    waiting.clear();
  }

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(new URL('./sender-worker.ts', import.meta.url), {
      workerData: options satisfies SenderThreadData,
      resourceLimits: RESOURCE_LIMITS,
    });
    started.on('message', ({ outcomes }: OutcomeBatch) => {
      for (const { ref, outcome } of outcomes) {
        waiting.get(ref)?.(outcome);
        waiting.delete(ref);
      }
    });
    // An error ends the thread; 'exit' follows it.
    started.on('error', () => undefined);
    started.on('exit', () => {
      if (worker === started) worker = null;
      failWaiting('the sending thread stopped');
    });
    // It never keeps the process alive by itself: the dispatcher's own loop does while it runs.
    started.unref();
    worker = started;
    return started;
  }

  function flush(): void {
    const requests = batch;
    batch = [];
    // Closing already answered whatever was waiting.
    if (requests.length === 0 || closed) return;
    thread().postMessage({ requests } satisfies SendBatch);
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
      const running = worker;
      worker = null;
      failWaiting('the sender is closed');
      if (running) await running.terminate();
    },
  };
}
