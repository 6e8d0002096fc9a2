import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { DispatcherSettings } from '../../src/webhooks/dispatcher.ts';
import { startThreadSender } from '../../src/webhooks/sender-thread.ts';
import type { SenderFactory } from '../../src/webhooks/sender.ts';
import { systemTimer, type Timer } from '../../src/webhooks/timer.ts';
import { WAIT_CAP_MS } from './manual-timer.ts';

export { startThreadSender };

/** Threads being started by `startedThreadSender`, until `threadsStarted()` awaits them. */
const starting: Promise<unknown>[] = [];

/**
 * A thread sender whose thread starts at once instead of with the first delivery: a test awaits
 * `threadsStarted()` after making its dispatcher, so that its waits for deliveries never include starting a
 * thread (seconds on a busy machine). The first request (not http) is answered by the thread without a
 * connection.
 */
const startedThreadSender: SenderFactory = (options) => {
  const sender = startThreadSender(options);
  starting.push(sender.send({ url: 'about:blank', eventId: 'start', secret: 'whsec_c3RhcnQ=', body: '' }));
  return sender;
};

/** Resolves once every thread started by the thread senders made so far answers. */
export async function threadsStarted(): Promise<void> {
  await Promise.all(starting.splice(0));
}

/** Where a dispatcher's deliveries are signed and sent: its own event loop (the default) or a thread of their own. */
export const SENDERS: readonly (readonly [string, SenderFactory | undefined])[] = [
  ['on the event loop', undefined],
  ['on a thread', startedThreadSender],
];

/**
 * Dispatcher settings for tests against a local receiver: private networks allowed, quick polling, small
 * concurrency; each test overrides what it is about.
 */
export function testDispatcherSettings(overrides: Partial<DispatcherSettings> = {}): DispatcherSettings {
  return {
    allowPrivateNetworks: true,
    concurrency: 8,
    perEndpointConcurrency: 4,
    timeoutMs: 10_000,
    leaseMs: 30_000,
    pollIntervalMs: 20,
    excerptBytes: 256,
    backlogLogIntervalMs: 60_000,
    retry: { firstDelayMs: 1_000, maxDelayMs: 10_000 },
    ...overrides,
  };
}

/**
 * How the receiver answers a request: a status at once, a status after a while (on its timer) or with a body of
 * the test's, never (`hang`), or by closing the connection without an answer (`drop`).
 */
export type Answer =
  | number
  | 'hang'
  | 'drop'
  | { readonly status: number; readonly afterMs?: number; readonly body?: string | Buffer };

/** One request a receiver got, with the outcome of verifying its signature with the endpoint's secret. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly verified: boolean;
  /** The verified payload (undefined when verification failed). */
  readonly payload: Record<string, unknown> | undefined;
  /**
   * The status it was (or is to be) answered with; `drop`: its connection was closed without an answer;
   * `dropped`: its connection was closed before the request was read (see `connections`).
   */
  readonly answered: number | 'hang' | 'drop' | 'dropped';
  /** 1 for the first request on its connection, 2 for the next one on the same kept-alive connection, … */
  readonly onConnection: number;
}

export type Behaviour = (request: {
  readonly path: string;
  readonly count: number;
  /** The delivery's `webhook-id` header: the event's id. */
  readonly webhookId: string;
}) => Answer;

/**
 * What the receiver does with its connections once a request is answered:
 * - `keep-alive`: keeps them open for the next request (Node's default, 5 s idle);
 * - `close-after-answer`: closes each once its answer is sent, although the answer said keep-alive;
 * - `drop-reused`: keeps them open, but closes one unread when a second request arrives on it: the receiver had
 *   closed it as idle just as the sender reused it (the request never reached the application).
 */
export type ConnectionMode = 'keep-alive' | 'close-after-answer' | 'drop-reused';

/**
 * A real HTTP server (HTTPS when given a key and certificate) on 127.0.0.1 (random port) standing in for webhook
 * endpoints: each path is an endpoint with its own secret; every request is verified with the `standardwebhooks`
 * library. Delayed answers wait on the timer it was started with, so a test can make it slow without waiting.
 */
export class Receiver {
  readonly received: Received[] = [];
  behaviour: Behaviour = () => 204;
  connections: ConnectionMode = 'keep-alive';
  private readonly secrets = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly hanging = new Set<() => void>();
  private readonly onConnection = new WeakMap<Socket, number>();
  private readonly watchers = new Set<() => void>();
  private readonly server: Server | TlsServer;
  private readonly timer: Timer;
  readonly baseUrl: string;

  private constructor(server: Server | TlsServer, baseUrl: string, timer: Timer) {
    this.server = server;
    this.baseUrl = baseUrl;
    this.timer = timer;
  }

  static async start(options: { readonly timer?: Timer; readonly tls?: { readonly key: Buffer; readonly cert: Buffer } } = {}): Promise<Receiver> {
    const holder: { self?: Receiver } = {};
    const arrive = (req: IncomingMessage, res: ServerResponse) => holder.self?.arrive(req, res);
    const server = options.tls ? createTlsServer(options.tls, arrive) : createServer(arrive);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.self = new Receiver(server, `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`, options.timer ?? systemTimer);
    return holder.self;
  }

  /** Registers an endpoint path and the secret its deliveries must be signed with; returns its URL. */
  endpoint(path: string, secret: string): string {
    this.secrets.set(path, secret);
    return `${this.baseUrl}${path}`;
  }

  setSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** The requests that reached the application at `path` (those dropped unread are left out). */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path && r.answered !== 'dropped');
  }

  /** The ids of the events answered 2xx at `path`. */
  acknowledged(path: string): string[] {
    return this.at(path)
      .filter((r) => typeof r.answered === 'number' && r.answered >= 200 && r.answered < 300)
      .map((r) => String(r.headers['webhook-id']));
  }

  /** Resolves once `check` holds for what has arrived (checked now and on every request); fails after WAIT_CAP_MS. */
  waitFor(check: (receiver: Receiver) => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const cap = setTimeout(() => {
        this.watchers.delete(watcher);
        reject(new Error(`the receiver did not get ${what} within ${WAIT_CAP_MS} ms (got ${this.received.length})`));
      }, WAIT_CAP_MS);
      const watcher = () => {
        if (!check(this)) return;
        this.watchers.delete(watcher);
        clearTimeout(cap);
        resolve();
      };
      this.watchers.add(watcher);
      watcher();
    });
  }

  private arrive(req: IncomingMessage, res: ServerResponse): void {
    const onConnection = (this.onConnection.get(req.socket) ?? 0) + 1;
    this.onConnection.set(req.socket, onConnection);
    const path = req.url ?? '/';
    if (this.connections === 'drop-reused' && onConnection > 1) {
      this.record({ path, headers: req.headers, body: '', verified: false, payload: undefined, answered: 'dropped', onConnection });
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.handle(path, req.headers, Buffer.concat(chunks).toString('utf8'), onConnection, res));
  }

  private handle(path: string, headers: IncomingHttpHeaders, body: string, onConnection: number, res: ServerResponse): void {
    const count = (this.counts.get(path) ?? 0) + 1;
    this.counts.set(path, count);
    const secret = this.secrets.get(path);
    let payload: Record<string, unknown> | undefined;
    try {
      if (secret === undefined) throw new Error('unknown endpoint');
      payload = new Webhook(secret).verify(body, headers as Record<string, string>) as Record<string, unknown>;
    } catch {
      payload = undefined;
    }
    const answer = this.behaviour({ path, count, webhookId: String(headers['webhook-id'] ?? '') });
    const status = typeof answer === 'object' ? answer.status : answer;
    this.record({ path, headers, body, verified: payload !== undefined, payload, answered: status, onConnection });
    if (status === 'hang') {
      this.hanging.add(() => res.destroy());
      return;
    }
    if (status === 'drop') {
      res.destroy();
      return;
    }
    const send = () => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      const body = typeof answer === 'object' ? answer.body : undefined;
      res.end(body ?? (status >= 200 && status < 300 ? 'ok' : `failing with ${status}: ${'x'.repeat(2000)}`), () => {
        if (this.connections === 'close-after-answer') res.socket?.destroy();
      });
    };
    if (typeof answer === 'object' && answer.afterMs !== undefined) this.timer.setTimeout(send, answer.afterMs);
    else send();
  }

  private record(received: Received): void {
    this.received.push(received);
    for (const watcher of [...this.watchers]) watcher();
  }

  /** Drops every request left hanging. */
  releaseHanging(): void {
    for (const release of this.hanging) release();
    this.hanging.clear();
  }

  async close(): Promise<void> {
    this.releaseHanging();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls `check` until it returns true, for at most WAIT_CAP_MS (what a real server process does by itself). */
export async function eventually(check: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  const deadline = Date.now() + WAIT_CAP_MS;
  for (;;) {
    if (await check()) return;
    if (Date.now() >= deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const SILENT_LOG = { info: () => undefined, warn: () => undefined, error: () => undefined };
