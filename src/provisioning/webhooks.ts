import { randomBytes } from 'node:crypto';
import type { Executor } from '../db/types.ts';
import { ProvisioningError, jsonPath, type ProvisioningIssue } from './errors.ts';
import { findEndpointWorkspaces, insertEndpoint, updateEndpoint } from './repository.ts';
import type { ProvisioningDocument, WebhookDocument } from './schema.ts';

/** A webhook endpoint this run created; `secret` only when this run generated it (printed once, here). */
export interface ProvisionedWebhook {
  readonly id: string;
  readonly secret?: string;
}

const SECRET_PREFIX = 'whsec_';
const MIN_SECRET_BYTES = 24;
const GENERATED_SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(GENERATED_SECRET_BYTES).toString('base64')}`;
}

/** `whsec_` + standard base64 of at least 24 bytes. */
export function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false;
  return Buffer.from(encoded, 'base64').length >= MIN_SECRET_BYTES;
}

function urlIssue(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an http(s) URL';
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry credentials';
  return null;
}

function webhooksOf(document: ProvisioningDocument) {
  return document.workspaces.flatMap((workspace, w) =>
    (workspace.webhooks ?? []).map((webhook, i) => ({
      workspaceId: workspace.id,
      webhook: { ...webhook, id: webhook.id.toLowerCase() } satisfies WebhookDocument,
      path: jsonPath('workspaces', w, 'webhooks', i),
    })),
  );
}

/** Rules that need only the document: URL shape, secret format, ids used once. */
export function webhookDocumentIssues(document: ProvisioningDocument): ProvisioningIssue[] {
  const issues: ProvisioningIssue[] = [];
  const seen = new Set<string>();
  for (const { webhook, path } of webhooksOf(document)) {
    const url = urlIssue(webhook.url);
    if (url) issues.push({ path: `${path}.url`, message: url });
    // The secret's value never appears in a message.
    if (webhook.secret !== undefined && !isWebhookSecret(webhook.secret)) {
      issues.push({
        path: `${path}.secret`,
        message: `must be ${SECRET_PREFIX} followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes`,
      });
    }
    if (seen.has(webhook.id)) issues.push({ path: `${path}.id`, message: 'is used by another webhook of the document' });
    seen.add(webhook.id);
  }
  return issues;
}

/**
 * Upserts the document's webhook endpoints in the caller's transaction. An existing endpoint keeps its secret
 * unless the document gives one; an endpoint never moves to another workspace. Returns the endpoints created.
 */
export async function writeWebhooks(
  trx: Executor,
  document: ProvisioningDocument,
  now: number,
): Promise<ProvisionedWebhook[]> {
  const entries = webhooksOf(document);
  if (entries.length === 0) return [];
  const existing = new Map<string, string>();
  const ids = entries.map((entry) => entry.webhook.id);
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await findEndpointWorkspaces(trx, ids.slice(i, i + 500));
    for (const row of rows) existing.set(row.id, row.workspace_id);
  }
  const moved = entries.filter((entry) => {
    const owner = existing.get(entry.webhook.id);
    return owner !== undefined && owner !== entry.workspaceId;
  });
  if (moved.length > 0) {
    throw new ProvisioningError(
      moved.map((entry) => ({ path: `${entry.path}.id`, message: 'belongs to another workspace; it cannot move' })),
    );
  }
  const created: ProvisionedWebhook[] = [];
  for (const { workspaceId, webhook } of entries) {
    const settings = {
      url: webhook.url,
      events: JSON.stringify(webhook.events),
      enabled: webhook.enabled === false ? 0 : 1,
      format: webhook.format ?? 'standard',
      updated_at: now,
    };
    if (existing.has(webhook.id)) {
      const secret = webhook.secret !== undefined ? { secret: webhook.secret } : {};
      await updateEndpoint(trx, webhook.id, { ...settings, ...secret });
      continue;
    }
    const secret = webhook.secret ?? generateWebhookSecret();
    await insertEndpoint(trx, { id: webhook.id, workspace_id: workspaceId, secret, created_at: now, ...settings });
    created.push(webhook.secret === undefined ? { id: webhook.id, secret } : { id: webhook.id });
  }
  return created;
}
