import type { Client } from 'openapi-fetch';
import { write, type CallOptions, type ChatContext, type ReviewOptions, type ReviewReadOptions, type WriteOptions } from './call-options.ts';
import type { paths } from './openapi.ts';
import { settle, type QueryOf, type Reply, type RequestBody, type SuccessBody } from './reply.ts';

const chatHeaders = (chat: ChatContext) => ({
  'x-chat-guild-id': chat.chatGuildId,
  'x-acting-chat-user-id': chat.actingChatUserId,
});

/**
 * Inactivity notices (docs/TIME-OFF.md). A staff member asks, lists and cancels through a bot's API key as the
 * acting chat user (`staff:write`, `staff:read`); a manager lists, approves and denies with a dashboard token
 * (`notices.decide`).
 */
export function timeOffOperations(api: Client<paths>) {
  return {
    requestInactivityNotice: (
      chat: ChatContext,
      body: RequestBody<'requestInactivityNotice'>,
      o: WriteOptions = {},
    ): Promise<Reply<SuccessBody<'requestInactivityNotice'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, ...chatHeaders(chat) };
      return settle(api.POST('/v1/staff/me/inactivity-notices', { params: { header: headers }, body, signal }), key);
    },
    listMyInactivityNotices: (
      chat: ChatContext,
      o: CallOptions = {},
    ): Promise<Reply<SuccessBody<'listMyInactivityNotices'>>> =>
      settle(
        api.GET('/v1/staff/me/inactivity-notices', {
          params: { header: { ...chatHeaders(chat), 'x-correlation-id': o.correlationId } },
          signal: o.signal,
        }),
      ),
    /** Cancels a pending or not yet started notice; an approved notice under way ends now (back early). */
    cancelInactivityNotice: (
      chat: ChatContext,
      noticeId: string,
      o: WriteOptions = {},
    ): Promise<Reply<SuccessBody<'cancelInactivityNotice'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, ...chatHeaders(chat) };
      const path = '/v1/staff/me/inactivity-notices/{noticeId}/cancel' as const;
      return settle(api.POST(path, { params: { path: { noticeId }, header: headers }, signal }), key);
    },

    listInactivityNotices: (
      query: QueryOf<'listInactivityNotices'> = {},
      o: ReviewReadOptions = {},
    ): Promise<Reply<SuccessBody<'listInactivityNotices'>>> =>
      settle(
        api.GET('/v1/staff/inactivity-notices', {
          params: { query, header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId } },
          signal: o.signal,
        }),
      ),
    approveInactivityNotice: (
      noticeId: string,
      body?: RequestBody<'approveInactivityNotice'>,
      o: ReviewOptions = {},
    ): Promise<Reply<SuccessBody<'approveInactivityNotice'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, 'x-service-workspace-id': o.workspaceId };
      const path = '/v1/staff/inactivity-notices/{noticeId}/approve' as const;
      return settle(api.POST(path, { params: { path: { noticeId }, header: headers }, body, signal }), key);
    },
    denyInactivityNotice: (
      noticeId: string,
      body?: RequestBody<'denyInactivityNotice'>,
      o: ReviewOptions = {},
    ): Promise<Reply<SuccessBody<'denyInactivityNotice'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, 'x-service-workspace-id': o.workspaceId };
      const path = '/v1/staff/inactivity-notices/{noticeId}/deny' as const;
      return settle(api.POST(path, { params: { path: { noticeId }, header: headers }, body, signal }), key);
    },
  };
}
