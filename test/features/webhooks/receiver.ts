import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { DispatcherSettings } from '../../../src/features/webhooks/dispatcher.ts';
import { startThreadSender } from '../../../src/features/webhooks/sender-thread.ts';
import type { SenderFactory } from '../../../src/features/webhooks/sender.ts';

export { startThreadSender };

/** Where a dispatcher's deliveries are signed and sent: its own event loop (the default) or a thread of their own. */
export const SENDERS: readonly (readonly [string, SenderFactory | undefined])[] = [
  ['on the event loop', undefined],
  ['on a thread', startThreadSender],
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

/** One request a receiver got, with the outcome of verifying its signature with the endpoint's secret. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly verified: boolean;
  /** The verified payload (undefined when verification failed). */
  readonly payload: Record<string, unknown> | undefined;
  readonly answered: number | 'hang';
}

export type Behaviour = (request: {
  readonly path: string;
  readonly count: number;
  /** The delivery's `webhook-id` header: the event's id. */
  readonly webhookId: string;
}) => number | 'hang';

/**
 * A real HTTP server on 127.0.0.1 (random port) standing in for webhook endpoints: each path is an endpoint with
 * its own secret; every request is verified with the `standardwebhooks` library.
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly hanging = new Set<() => void>();
  behaviour: Behaviour = () => 204;

  private readonly server: Server;
  readonly baseUrl: string;
  private constructor(server: Server, baseUrl: string) {
    this.server = server;
    this.baseUrl = baseUrl;
  }

  static async start(): Promise<Receiver> {
    const holder: { self?: Receiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => holder.self?.handle(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.self = new Receiver(server, `http://127.0.0.1:${port}`);
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

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  private handle(
    path: string,
    headers: IncomingHttpHeaders,
    body: string,
    res: ServerResponse,
  ): void {
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
    this.received.push({ path, headers, body, verified: payload !== undefined, payload, answered: answer });
    if (answer === 'hang') {
      const release = () => res.destroy();
      this.hanging.add(release);
      return;
    }
    res.writeHead(answer, { 'content-type': 'text/plain' });
    res.end(answer >= 200 && answer < 300 ? 'ok' : `failing with ${answer}: ${'x'.repeat(2000)}`);
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

/** Polls `check` until it returns true (generous: the machine may be slow). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const SILENT_LOG = { info: () => undefined, warn: () => undefined, error: () => undefined };
