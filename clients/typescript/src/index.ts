export { createGatewayClient, type GatewayClient, type GatewayClientOptions } from './client.ts';
export { GatewayError, isErrorEnvelope, type AnswerIssue, type ErrorCode, type ErrorDetails, type ErrorEnvelope } from './errors.ts';
export type { CallOptions, ChatContext, GatewayOperations, ReviewOptions, ReviewReadOptions, WriteOptions } from './operations.ts';
export type { QueryOf, Reply, RequestBody, SuccessBody } from './reply.ts';
export { backoffMs, isRetryableStatus, retryAfterMs, retryingFetch, type FetchLike, type RetryEvent, type RetryOptions } from './retry.ts';
export type { components, operations, paths } from './openapi.ts';
export type { WebhookEvent, WebhookEventType } from './webhooks.ts';
