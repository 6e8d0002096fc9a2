import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

/**
 * A service the background thread can run, named by its owner: the module (a file URL) whose export `entry`
 * the thread calls with the service's channel and `Data`. The thread knows no service; each owner hands it its own
 * (the store its checkpointer, the webhooks their sender).
 */
export interface BackgroundService<Data> {
  readonly module: string;
  readonly entry: string;
  /** Never set: carries the type of the data the service starts with. */
  readonly data?: Data;
}

/** What a service's entry is: it serves the channel it is handed, starting from `data`. */
export type ServeOnThread<Data> = (port: MessagePort, data: Data) => void;

/** The message that starts a service on the thread, with the thread's end of the service's channel. */
export interface StartService {
  readonly module: string;
  readonly entry: string;
  readonly data: unknown;
  readonly port: MessagePort;
}

/** A service running on the background thread, as its owner on the serving thread sees it. */
export interface RunningService {
  /** The serving thread's end of the service's channel: `postMessage` reaches the service. */
  readonly port: MessagePort;
  /** Resolves once the service's channel is closed, from either end, or the thread has stopped. */
  readonly closed: Promise<void>;
  /**
   * Closes the channel (the service stops); resolves once the thread no longer runs it and, if it was the
   * thread's last, the thread has exited.
   */
  close(): Promise<void>;
}

export interface ServiceHandlers {
  /** A message from the service. */
  onMessage(message: unknown): void;
  /** The thread stopped while the service ran (an error, its heap limit): the service is gone. */
  onExit(): void;
}

/**
 * The thread's heap. The sender holds its connections and the deliveries on the wire (at most the dispatcher's
 * concurrency, each a body of up to a few hundred kilobytes), the checkpointer one connection and a few small
 * messages, so the old generation stays small; the cap leaves room for a full set of large bodies. The young
 * generation is where each request's and answer's garbage goes: it is sized for a lower peak of resident memory
 * while deliveries flow, at the cost of a little more collection per delivery, and not so small that collection
 * takes a real share of the thread's CPU (the figures: docs/BENCHMARKS.md, "Measurements behind the design").
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 12 };

interface Entry {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly handlers: ServiceHandlers;
  readonly done: () => void;
  /** Set when the owner closes the channel: a channel that closes otherwise lost its thread. */
  closing: boolean;
}

/**
 * One worker thread for the work a serving process keeps off the event loop that serves the API: the SQLite
 * checkpoints and the webhook sends. A thread costs resident memory before it does anything (its V8 heap, Node's
 * own modules), so the services share one rather than each having its own (docs/BENCHMARKS.md, "Memory"). Each service talks to
 * its part of the thread over a channel of its own (`MessageChannel`), as if the thread were its alone; only its
 * owner closes it (a service asked to stop answers, then its owner closes).
 *
 * The thread starts with the first service and exits with the last one's close. If it stops while services run,
 * each is told (`onExit`) and the next `start` starts a new thread. It never keeps the process alive by itself.
 */
export class BackgroundThread {
  private worker: Worker | null = null;
  private readonly entries = new Set<Entry>();
  private starts = 0;

  /** Threads started so far (tests check that services share one). */
  get started(): number {
    return this.starts;
  }

  /** Whether a thread is up. */
  get running(): boolean {
    return this.worker !== null;
  }

  start<Data>(service: BackgroundService<Data>, data: Data, handlers: ServiceHandlers): RunningService {
    const worker = this.worker ?? this.spawn();
    const { port1: port, port2 } = new MessageChannel();
    let done!: () => void;
    const closed = new Promise<void>((resolve) => {
      done = resolve;
    });
    const entry: Entry = { worker, port, handlers, done, closing: false };
    this.entries.add(entry);
    port.on('message', handlers.onMessage);
    // The thread's end of a channel closes by itself only when the thread stops (before its 'exit' is seen).
    port.once('close', () => (entry.closing ? this.finish(entry) : this.lost(worker)));
    // Like the thread, a service's channel never keeps the process alive.
    port.unref();
    const message: StartService = { module: service.module, entry: service.entry, data, port: port2 };
    worker.postMessage(message, [port2]);
    return {
      port,
      closed,
      close: async () => {
        entry.closing = true;
        port.close();
        await closed;
        await this.stopWhenUnused(worker);
      },
    };
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { resourceLimits: RESOURCE_LIMITS });
    // An error ends the thread; 'exit' follows it.
    worker.on('error', () => undefined);
    worker.on('exit', () => this.lost(worker));
    worker.unref();
    this.starts += 1;
    this.worker = worker;
    return worker;
  }

  private finish(entry: Entry): void {
    if (this.entries.delete(entry)) entry.done();
  }

  /** `worker` stopped, or is stopping: every service still on it is told, and the next start starts a thread. */
  private lost(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
    for (const entry of [...this.entries]) {
      if (entry.worker !== worker) continue;
      this.entries.delete(entry);
      entry.closing = true;
      entry.port.close();
      entry.done();
      entry.handlers.onExit();
    }
    void worker.terminate();
  }

  private async stopWhenUnused(worker: Worker): Promise<void> {
    if (this.worker !== worker || [...this.entries].some((entry) => entry.worker === worker)) return;
    this.worker = null;
    await worker.terminate();
  }
}
