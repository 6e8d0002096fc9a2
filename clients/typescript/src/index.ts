export { createGatewayClient, type GatewayClient, type GatewayClientOptions } from './client.js';
export { GatewayError, isErrorEnvelope, type ErrorCode, type ErrorEnvelope } from './errors.js';
export type { CallOptions, ChatContext, GatewayOperations, ReviewOptions, WriteOptions } from './operations.js';
export type { QueryOf, Reply, RequestBody, SuccessBody } from './reply.js';
export { backoffMs, isRetryableStatus, retryAfterMs, retryingFetch, type FetchLike, type RetryEvent, type RetryOptions } from './retry.js';
export type { components, operations, paths } from './openapi.js';
