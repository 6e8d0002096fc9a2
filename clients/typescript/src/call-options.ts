export interface CallOptions {
  /** X-Correlation-Id (1..128 visible ASCII) to find this call in the gateway's logs. */
  readonly correlationId?: string;
  readonly signal?: AbortSignal;
}

export interface WriteOptions extends CallOptions {
  /**
   * Idempotency-Key of this logical write. Default: a new random UUID per call, reused on every retry of it.
   * Pass your own to make a write safe to repeat across restarts (e.g. derived from the chat command's id).
   */
  readonly idempotencyKey?: string;
}

export interface ReviewOptions extends WriteOptions {
  /** X-Service-Workspace-Id: the workspace to act in, for a member of several. */
  readonly workspaceId?: string;
}

export interface ReviewReadOptions extends CallOptions {
  /** X-Service-Workspace-Id: read only this workspace (default: every workspace the user may read). */
  readonly workspaceId?: string;
}

/** The chat context the member-facing reads need (the guild and the member who asked). */
export interface ChatContext {
  readonly chatGuildId: string;
  readonly actingChatUserId: string;
}

/** The headers and signal of one logical write; its Idempotency-Key is reused on every retry of it. */
export function write(options: WriteOptions) {
  const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
  const header = { 'idempotency-key': key, 'x-correlation-id': options.correlationId };
  return { key, header, signal: options.signal };
}
