import type { webhooks } from './openapi.ts';

/** Every event type the gateway sends to webhook endpoints (the document's `webhooks`). */
export type WebhookEventType = keyof webhooks;

/**
 * The body an endpoint receives for an event of type `T` (by default: of any type, narrowed by its `type`). Verify
 * the signature (any Standard Webhooks library) before trusting a body as one.
 */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  [K in T]: webhooks[K]['post']['requestBody']['content']['application/json'];
}[T];
