import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomBase62 } from '../../../src/shared/ids.ts';
import type { Inject } from '../../helpers/contract.ts';
import { GUILD_ID } from '../../helpers/fixtures.ts';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function newKey(): string {
  return `key-${randomBase62(20)}`;
}

export interface StaffCallOptions {
  /** The acting chat user; default alice's of the fixture (5551). */
  readonly chatUserId?: string | null;
  readonly guildId?: string | null;
  /** Default: a fresh key; null sends none. */
  readonly key?: string | null;
  readonly body?: unknown;
  readonly contentType?: string | null;
  readonly headers?: Record<string, string>;
}

function headersOf(credential: string | null, options: StaffCallOptions & { token?: boolean }): Record<string, string> {
  const headers: Record<string, string> = { ...options.headers };
  if (credential !== null) headers.authorization = `Bearer ${credential}`;
  return headers;
}

function withBody(headers: Record<string, string>, options: StaffCallOptions, method: 'GET' | 'POST', url: string): InjectOptions {
  const key = options.key === undefined ? newKey() : options.key;
  if (method === 'POST' && key !== null) headers['idempotency-key'] = key;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (payload !== undefined && options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  return { method, url, headers, ...(payload !== undefined ? { payload } : {}) };
}

/** A call of the staff member's own operations, as the chat bot makes it. */
export function staffCall(
  inject: Inject,
  secret: string,
  method: 'GET' | 'POST',
  url: string,
  options: StaffCallOptions = {},
): Promise<LightMyRequestResponse> {
  const headers = headersOf(secret, options);
  const chatUserId = options.chatUserId === undefined ? '5551' : options.chatUserId;
  const guildId = options.guildId === undefined ? GUILD_ID : options.guildId;
  if (chatUserId !== null) headers['x-acting-chat-user-id'] = chatUserId;
  if (guildId !== null) headers['x-chat-guild-id'] = guildId;
  return inject(withBody(headers, options, method, url));
}

export const OWN = '/v1/staff/me/inactivity-notices';

export function ask(inject: Inject, secret: string, body: unknown, options: StaffCallOptions = {}) {
  return staffCall(inject, secret, 'POST', OWN, { ...options, body });
}

export function listMine(inject: Inject, secret: string, options: StaffCallOptions = {}) {
  return staffCall(inject, secret, 'GET', OWN, options);
}

export function cancel(inject: Inject, secret: string, noticeId: string, options: StaffCallOptions = {}) {
  return staffCall(inject, secret, 'POST', `${OWN}/${noticeId}/cancel`, options);
}

export interface ManagerCallOptions {
  readonly body?: unknown;
  readonly key?: string | null;
  readonly workspaceId?: string;
}

/** A manager's decision on the dashboard. */
export function decide(
  inject: Inject,
  token: string,
  operation: 'approve' | 'deny',
  noticeId: string,
  options: ManagerCallOptions = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.workspaceId) headers['x-service-workspace-id'] = options.workspaceId;
  return inject(withBody(headers, { key: options.key, body: options.body }, 'POST', `/v1/staff/inactivity-notices/${noticeId}/${operation}`));
}

export function listNotices(inject: Inject, token: string, query = '', workspaceId?: string): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (workspaceId) headers['x-service-workspace-id'] = workspaceId;
  return inject({ method: 'GET', url: `/v1/staff/inactivity-notices${query}`, headers });
}

/** A valid request starting `startInHours` from `now` and lasting `hours`. */
export function noticeBody(now: number, startInHours: number, hours: number, reason = 'Exams') {
  return { startsAt: iso(now + startInHours * HOUR), endsAt: iso(now + (startInHours + hours) * HOUR), reason };
}

export function errorOf(res: LightMyRequestResponse): { code: string; details?: Record<string, unknown> } {
  return (res.json() as { error: { code: string; details?: Record<string, unknown> } }).error;
}

export function dataOf<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  if (res.statusCode !== 200) throw new Error(`expected 200, got ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: T }).data;
}

export interface NoticeData {
  readonly notice: {
    readonly id: string;
    readonly staffId: string;
    readonly environment: string;
    readonly startsAt: string;
    readonly endsAt: string;
    readonly reason: string;
    readonly status: string;
    readonly createdAt: string;
    readonly decidedAt: string | null;
    readonly decisionNote: string | null;
  };
  readonly commandId: string;
  readonly eventId: string;
}
