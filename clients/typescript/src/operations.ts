import type { Client } from 'openapi-fetch';
import type { paths } from './openapi.ts';
import { write, type CallOptions, type ChatContext, type ReviewOptions, type ReviewReadOptions, type WriteOptions } from './call-options.ts';
import { settle, type QueryOf, type Reply, type RequestBody, type SuccessBody } from './reply.ts';
import { timeOffOperations } from './time-off.ts';
import { consoleOperations } from './console.ts';
import { staffOperations } from './staff.ts';

export type { CallOptions, ChatContext, ReviewOptions, ReviewReadOptions, WriteOptions } from './call-options.ts';

type Api = Client<paths>;

/** The typed operations of the gateway, one method per operationId of the document. */
export function gatewayOperations(api: Api) {
  return {
    // Metadata (no credential needed).
    getHealth: (o: CallOptions = {}): Promise<Reply<SuccessBody<'getHealth'>>> =>
      settle(api.GET('/health', { signal: o.signal })),
    getVersion: (o: CallOptions = {}): Promise<Reply<SuccessBody<'getVersion'>>> =>
      settle(api.GET('/version', { signal: o.signal })),
    getOpenApiDocument: (o: CallOptions = {}): Promise<Reply<SuccessBody<'getOpenApiDocument'>>> =>
      settle(api.GET('/openapi.json', { signal: o.signal })),
    getReadiness: (o: CallOptions = {}): Promise<Reply<SuccessBody<'getReadiness'>>> =>
      settle(api.GET('/ready', { signal: o.signal })),
    /** The Prometheus exposition text (pass the client a `token` when the gateway sets METRICS_TOKEN). */
    getMetrics: (o: CallOptions = {}): Promise<Reply<string>> =>
      settle<string>(api.GET('/metrics', { parseAs: 'text', signal: o.signal })),

    // Integration and chat-facing reads (API key).
    getIntegration: (chatGuildId?: string, o: CallOptions = {}): Promise<Reply<SuccessBody<'getIntegration'>>> =>
      settle(api.GET('/v1/integration', { params: { header: { 'x-chat-guild-id': chatGuildId } }, signal: o.signal })),
    getStaffMe: (chat: ChatContext, o: CallOptions = {}): Promise<Reply<SuccessBody<'getStaffMe'>>> =>
      settle(
        api.GET('/v1/staff/me', {
          params: { header: { 'x-chat-guild-id': chat.chatGuildId, 'x-acting-chat-user-id': chat.actingChatUserId } },
          signal: o.signal,
        }),
      ),
    getActivitySummary: (chat: ChatContext, o: CallOptions = {}): Promise<Reply<SuccessBody<'getActivitySummary'>>> =>
      settle(
        api.GET('/v1/activity/me/summary', {
          params: {
            header: {
              'x-chat-guild-id': chat.chatGuildId,
              'x-acting-chat-user-id': chat.actingChatUserId,
              'x-correlation-id': o.correlationId,
            },
          },
          signal: o.signal,
        }),
      ),

    // Activity reads (API key, activity:read).
    getStaffActivity: (
      gameUserId: string,
      query: QueryOf<'getStaffActivity'> = {},
      o: CallOptions = {},
    ): Promise<Reply<SuccessBody<'getStaffActivity'>>> =>
      settle(
        api.GET('/v1/activity/staff/{gameUserId}', {
          params: { path: { gameUserId }, query, header: { 'x-correlation-id': o.correlationId } },
          signal: o.signal,
        }),
      ),
    getActivityLeaderboard: (
      query: QueryOf<'getActivityLeaderboard'> = {},
      o: ReviewReadOptions = {},
    ): Promise<Reply<SuccessBody<'getActivityLeaderboard'>>> =>
      settle(
        api.GET('/v1/activity/leaderboard', {
          params: { query, header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId } },
          signal: o.signal,
        }),
      ),
    listActiveShifts: (
      query: QueryOf<'listActiveShifts'> = {},
      o: ReviewReadOptions = {},
    ): Promise<Reply<SuccessBody<'listActiveShifts'>>> =>
      settle(
        api.GET('/v1/activity/shifts/active', {
          params: { query, header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId } },
          signal: o.signal,
        }),
      ),
    getShift: (shiftId: string, o: CallOptions = {}): Promise<Reply<SuccessBody<'getShift'>>> =>
      settle(
        api.GET('/v1/activity/shifts/{shiftId}', {
          params: { path: { shiftId }, header: { 'x-correlation-id': o.correlationId } },
          signal: o.signal,
        }),
      ),

    // Shift writes (API key, activity:write); each call is one logical write with its own Idempotency-Key.
    startShift: (body: RequestBody<'startShift'>, o: WriteOptions = {}): Promise<Reply<SuccessBody<'startShift'>>> => {
      const { key, header, signal } = write(o);
      return settle(api.POST('/v1/activity/shifts/start', { params: { header }, body, signal }), key);
    },
    recordShiftHeartbeat: (
      shiftId: string,
      body?: RequestBody<'recordShiftHeartbeat'>,
      o: WriteOptions = {},
    ): Promise<Reply<SuccessBody<'recordShiftHeartbeat'>>> => {
      const { key, header, signal } = write(o);
      return settle(
        api.POST('/v1/activity/shifts/{shiftId}/heartbeat', { params: { path: { shiftId }, header }, body, signal }),
        key,
      );
    },
    stopShift: (
      shiftId: string,
      body?: RequestBody<'stopShift'>,
      o: WriteOptions = {},
    ): Promise<Reply<SuccessBody<'stopShift'>>> => {
      const { key, header, signal } = write(o);
      return settle(api.POST('/v1/activity/shifts/{shiftId}/stop', { params: { path: { shiftId }, header }, body, signal }), key);
    },
    recordShiftHeartbeats: (
      body: RequestBody<'recordShiftHeartbeats'>,
      o: WriteOptions = {},
    ): Promise<Reply<SuccessBody<'recordShiftHeartbeats'>>> => {
      const { key, header, signal } = write(o);
      return settle(api.POST('/v1/activity/shifts/heartbeats', { params: { header }, body, signal }), key);
    },
    stopServerShifts: (
      serverId: string,
      body?: RequestBody<'stopServerShifts'>,
      o: WriteOptions = {},
    ): Promise<Reply<SuccessBody<'stopServerShifts'>>> => {
      const { key, header, signal } = write(o);
      return settle(
        api.POST('/v1/activity/servers/{serverId}/stop', { params: { path: { serverId }, header }, body, signal }),
        key,
      );
    },

    // Application review reads (dashboard token).
    listSubmissions: (
      query: QueryOf<'listSubmissions'> = {},
      o: ReviewReadOptions = {},
    ): Promise<Reply<SuccessBody<'listSubmissions'>>> =>
      settle(
        api.GET('/v1/applications/submissions', {
          params: { query, header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId } },
          signal: o.signal,
        }),
      ),
    getSubmission: (submissionId: string, o: ReviewReadOptions = {}): Promise<Reply<SuccessBody<'getSubmission'>>> =>
      settle(
        api.GET('/v1/applications/submissions/{submissionId}', {
          params: {
            path: { submissionId },
            header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId },
          },
          signal: o.signal,
        }),
      ),
    getApplicationStats: (
      query: QueryOf<'getApplicationStats'> = {},
      o: ReviewReadOptions = {},
    ): Promise<Reply<SuccessBody<'getApplicationStats'>>> =>
      settle(
        api.GET('/v1/applications/stats', {
          params: { query, header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId } },
          signal: o.signal,
        }),
      ),
    // Application forms and intake (API key, applications:read and applications:write).
    listApplicationForms: (o: CallOptions = {}): Promise<Reply<SuccessBody<'listApplicationForms'>>> =>
      settle(api.GET('/v1/applications/forms', { params: { header: { 'x-correlation-id': o.correlationId } }, signal: o.signal })),
    getApplicationForm: (formId: string, o: CallOptions = {}): Promise<Reply<SuccessBody<'getApplicationForm'>>> =>
      settle(
        api.GET('/v1/applications/forms/{formId}', {
          params: { path: { formId }, header: { 'x-correlation-id': o.correlationId } },
          signal: o.signal,
        }),
      ),
    submitApplication: (
      formId: string,
      body: RequestBody<'submitApplication'>,
      o: WriteOptions = {},
    ): Promise<Reply<SuccessBody<'submitApplication'>>> => {
      const { key, header, signal } = write(o);
      return settle(
        api.POST('/v1/applications/forms/{formId}/submissions', { params: { path: { formId }, header }, body, signal }),
        key,
      );
    },
    listApplicantSubmissions: (
      gameUserId: string,
      o: CallOptions = {},
    ): Promise<Reply<SuccessBody<'listApplicantSubmissions'>>> =>
      settle(
        api.GET('/v1/applications/applicants/{gameUserId}/submissions', {
          params: { path: { gameUserId }, header: { 'x-correlation-id': o.correlationId } },
          signal: o.signal,
        }),
      ),

    // Application review (dashboard token).
    acceptSubmission: (
      submissionId: string,
      body?: RequestBody<'acceptSubmission'>,
      o: ReviewOptions = {},
    ): Promise<Reply<SuccessBody<'acceptSubmission'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, 'x-service-workspace-id': o.workspaceId };
      const path = '/v1/applications/submissions/{submissionId}/accept' as const;
      return settle(api.POST(path, { params: { path: { submissionId }, header: headers }, body, signal }), key);
    },
    markSubmissionUnderReview: (
      submissionId: string,
      body?: RequestBody<'markSubmissionUnderReview'>,
      o: ReviewOptions = {},
    ): Promise<Reply<SuccessBody<'markSubmissionUnderReview'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, 'x-service-workspace-id': o.workspaceId };
      const path = '/v1/applications/submissions/{submissionId}/mark-under-review' as const;
      return settle(api.POST(path, { params: { path: { submissionId }, header: headers }, body, signal }), key);
    },
    rejectSubmission: (
      submissionId: string,
      body?: RequestBody<'rejectSubmission'>,
      o: ReviewOptions = {},
    ): Promise<Reply<SuccessBody<'rejectSubmission'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, 'x-service-workspace-id': o.workspaceId };
      const path = '/v1/applications/submissions/{submissionId}/reject' as const;
      return settle(api.POST(path, { params: { path: { submissionId }, header: headers }, body, signal }), key);
    },
    updateSubmissionReview: (
      submissionId: string,
      body: RequestBody<'updateSubmissionReview'>,
      o: ReviewOptions = {},
    ): Promise<Reply<SuccessBody<'updateSubmissionReview'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, 'x-service-workspace-id': o.workspaceId };
      const path = '/v1/applications/submissions/{submissionId}/review' as const;
      return settle(api.PATCH(path, { params: { path: { submissionId }, header: headers }, body, signal }), key);
    },

    // Inactivity notices (time off): asked for through a bot's API key, decided with a dashboard token.
    ...timeOffOperations(api),
    ...staffOperations(api),

    // Console sign-in: links through a bot's API key, their exchange, and the signed-in member.
    ...consoleOperations(api),
  };
}

export type GatewayOperations = ReturnType<typeof gatewayOperations>;
