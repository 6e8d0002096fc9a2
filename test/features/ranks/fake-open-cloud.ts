import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One call Open Cloud received. */
export interface OpenCloudCall {
  readonly method: string;
  readonly path: string;
  readonly apiKey: string | undefined;
  readonly body: unknown;
  readonly at: number;
}

/** A group role as Open Cloud's List Group Roles describes it. */
export interface FakeGroupRole {
  readonly path: string;
  readonly createTime: string;
  readonly updateTime: string;
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
  readonly rank: number;
  readonly memberCount?: number;
  readonly permissions?: Record<string, boolean>;
}

/** How the fake answers a call: a status with Roblox's error body, optionally after a delay; or never. */
export type Answer =
  | { readonly status: number; readonly code?: string; readonly message?: string; readonly retryAfter?: number; readonly delayMs?: number }
  | 'hang';

/**
 * A fake of Roblox Open Cloud's group calls, as a real HTTP server: `POST
 * /cloud/v2/groups/{groupId}/memberships/{userId}:assignRole|:unassignRole`, and `GET /cloud/v2/groups/{groupId}/roles`
 * (List Group Roles: `maxPageSize`, at most 10 when left out and 20 when more is asked, and `pageToken`; answering
 * `{ groupRoles, nextPageToken }`, the token empty on the last page); errors as JSON `{ code, message }`, a 429 with
 * `retry-after`. `answer` decides each call (default 200).
 */
export class FakeOpenCloud {
  readonly calls: OpenCloudCall[] = [];
  answer: (call: OpenCloudCall, index: number) => Answer = () => ({ status: 200 });
  /** The group's roles, in the order List Group Roles pages through them. */
  groupRoles: FakeGroupRole[] = [];
  /** Fewer roles a page than asked for, as the service may return. */
  rolesPageLimit = 20;
  /** When a call arrives (`at`): the real time unless a test sets its own clock. */
  now: () => number = Date.now;
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  baseUrl = '';

  static async start(): Promise<FakeOpenCloud> {
    const fake = new FakeOpenCloud();
    fake.server = createServer((request, response) => void fake.handle(request, response));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const address = fake.server.address();
    fake.baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return fake;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const header = request.headers['x-api-key'];
    const call: OpenCloudCall = {
      method: request.method ?? '',
      path: request.url ?? '',
      apiKey: Array.isArray(header) ? header[0] : header,
      body,
      at: this.now(),
    };
    this.calls.push(call);
    const answer = this.answer(call, this.calls.length - 1);
    if (answer === 'hang') {
      this.hanging.add(response);
      return;
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (answer.retryAfter !== undefined) headers['retry-after'] = String(answer.retryAfter);
    response.writeHead(answer.status, headers);
    if (answer.status < 300 && call.method === 'GET' && /^\/cloud\/v2\/groups\/\d+\/roles(\?|$)/.test(call.path)) {
      response.end(JSON.stringify(this.rolesPage(new URL(call.path, 'http://fake').searchParams)));
      return;
    }
    response.end(
      answer.status < 300
        ? JSON.stringify({ path: call.path.split(':')[0] })
        : JSON.stringify({ code: answer.code ?? 'INTERNAL', message: answer.message ?? 'error' }),
    );
  }

  /** One page of List Group Roles; the page token is opaque to the caller. */
  private rolesPage(query: URLSearchParams): { groupRoles: FakeGroupRole[]; nextPageToken: string } {
    const asked = Number(query.get('maxPageSize') ?? 10);
    const size = Math.min(asked > 0 ? asked : 10, 20, this.rolesPageLimit);
    const token = query.get('pageToken');
    const start = token ? Number(Buffer.from(token, 'base64url').toString().replace('offset:', '')) : 0;
    const end = start + size;
    return {
      groupRoles: this.groupRoles.slice(start, end),
      nextPageToken: end < this.groupRoles.length ? Buffer.from(`offset:${end}`).toString('base64url') : '',
    };
  }

  /** The most calls any one window of `windowMs` received: calls at `at` and in the `windowMs` before it. */
  busiestWindow(windowMs: number): number {
    const times = this.calls.map((call) => call.at);
    return Math.max(0, ...times.map((end) => times.filter((at) => at > end - windowMs && at <= end).length));
  }

  /** Paths of the calls so far, `:assignRole`/`:unassignRole` with their role, e.g. `assign 5000001 102`. */
  summary(): string[] {
    return this.calls.map((call) => {
      const match = /memberships\/(\d+):(assignRole|unassignRole)$/.exec(call.path);
      const role = (call.body as { role?: string } | null)?.role?.split('/').pop();
      return `${match?.[2] === 'assignRole' ? 'assign' : 'unassign'} ${match?.[1] ?? '?'} ${role ?? '?'}`;
    });
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
