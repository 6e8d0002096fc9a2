import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Clock } from '../shared/clock.ts';
import type { Database } from '../db/types.ts';
import { noProgress, type Progress } from '../shared/progress.ts';
import { consistencyIssues } from './consistency.ts';
import { discordDocumentIssues, writeDiscord } from './discord.ts';
import { parseProvisioningDocument } from './document.ts';
import { documentEntities } from './entities.ts';
import { ProvisioningError } from './errors.ts';
import { robloxIssues, writeRoblox } from './roblox.ts';
import { loadSnapshot } from './snapshot.ts';
import { webhookDocumentIssues, writeWebhooks, type ProvisionedWebhook } from './webhooks.ts';
import { writeDocument, type ProvisionedKey } from './write.ts';

export { ProvisioningError, type ProvisioningIssue } from './errors.ts';
export type { ProvisioningDocument } from './schema.ts';
export type { ProvisionedKey } from './write.ts';
export type { ProvisionedWebhook } from './webhooks.ts';

export interface ProvisionResult {
  /** One entry per key this run created. */
  readonly keys: ProvisionedKey[];
  /** One entry per webhook endpoint this run created, with its secret when this run generated it. */
  readonly webhooks: ProvisionedWebhook[];
}

/**
 * Applies a provisioning document (docs/OPERATING.md, "Provisioning"): validates it completely, then upserts everything in one
 * transaction. Configuration is made to match the document, submissions and shifts are only inserted when
 * absent, and nothing is ever deleted. Throws ProvisioningError, having changed nothing, on any invalid input.
 */
export async function applyProvisioning(
  db: Kysely<Database>,
  document: unknown,
  clock: Clock,
  progress: Progress = noProgress,
): Promise<ProvisionResult> {
  progress('checking the document');
  const parsed = parseProvisioningDocument(document);
  const documentIssues = [...webhookDocumentIssues(parsed), ...discordDocumentIssues(parsed)];
  if (documentIssues.length > 0) throw new ProvisioningError(documentIssues);
  const entries = documentEntities(parsed);
  return db.transaction().execute(async (trx) => {
    // Read inside the transaction, so the checks see what the writes will meet.
    progress('reading what the database holds');
    const snapshot = await loadSnapshot(trx, parsed, entries);
    const issues = [...consistencyIssues(parsed, entries, snapshot), ...(await robloxIssues(trx, parsed))];
    if (issues.length > 0) throw new ProvisioningError(issues);
    const now = clock.now();
    const keys = await writeDocument(trx, parsed, snapshot, now, progress);
    progress('webhook endpoints');
    const webhooks = await writeWebhooks(trx, parsed, now);
    await writeDiscord(trx, parsed, now);
    await writeRoblox(trx, parsed, now);
    return { keys, webhooks };
  });
}

async function readDocument(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProvisioningError([{ path: '$', message: `cannot read ${path}: ${reason}` }]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProvisioningError([{ path: '$', message: `${path} is not valid JSON: ${reason}` }]);
  }
}

/** Reads a JSON file and applies it; an unreadable file or malformed JSON is a ProvisioningError too. */
export async function applyProvisioningFile(
  db: Kysely<Database>,
  path: string,
  clock: Clock,
  progress: Progress = noProgress,
): Promise<ProvisionResult> {
  progress(`reading ${path}`);
  return applyProvisioning(db, await readDocument(path), clock, progress);
}
