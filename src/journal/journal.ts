/**
 * The journal of the operations that change a submission or a notice (an intake, a review decision, a notice's
 * request, cancellation or decision). Each is recorded in the caller's transaction as one command (what was
 * asked, by whom, in which request) and one event (what happened), and the event goes to the workspace's webhook
 * endpoints with the operation's answer as its `data` (docs/WEBHOOKS.md). The payloads are the caller's, who keeps
 * personal data out of them.
 */
import { sql } from 'kysely';
import type { Environment } from '../shared/actor.ts';
import { writeThenRead } from '../db/dialect.ts';
import type { Executor } from '../db/types.ts';
import { newTimeOrderedId } from '../shared/ids.ts';
import type { WebhookEventType } from '../webhooks/event-types.ts';
import { enabledEndpoints, enqueueWebhookEvent } from '../webhooks/outbox.ts';

/** The request an operation belongs to, as recorded on its command. */
export interface RequestContext {
  readonly requestId: string;
  readonly idempotencyKey: string | null;
}

/** Who asked for an operation, as its command records them: a key's application, or a dashboard user. */
export interface CommandActor {
  readonly type: 'api_key' | 'user';
  readonly id: string;
}

export interface Operation {
  readonly workspaceId: string;
  /** The environment the event's data belongs to (see WebhookEvent in src/webhooks/outbox.ts). */
  readonly environment: Environment;
  readonly commandType: string;
  readonly eventType: WebhookEventType;
  readonly actor: CommandActor;
  readonly request: RequestContext;
  /** The submission the operation is on; null for one on none (a notice). */
  readonly submissionId: string | null;
  readonly commandPayload: Readonly<Record<string, unknown>>;
  readonly eventPayload: Readonly<Record<string, unknown>>;
  readonly at: number;
}

/** The ids of an operation's command and event (time-ordered), which complete its answer. */
export interface Recorded {
  readonly commandId: string;
  readonly eventId: string;
}

/**
 * Records `operation` in its transaction: its command, its event, and the event's webhook deliveries, whose data
 * is `answer` with the ids of both. Returns that answer.
 */
export async function recordOperation<Answer extends Readonly<Record<string, unknown>>>(
  trx: Executor,
  operation: Operation,
  answer: Answer,
): Promise<Answer & Recorded> {
  const { workspaceId, at } = operation;
  const commandId = newTimeOrderedId();
  const eventId = newTimeOrderedId();
  // Every intake, decision and notice operation runs both: `sql` templates cost less to build than builders.
  const o = operation;
  // One statement on PostgreSQL, with the read of the workspace's endpoints the event goes to: the event's foreign
  // key to its command is checked at the statement's end.
  const endpoints = await writeThenRead(
    trx,
    [
      sql`insert into commands (id, workspace_id, type, actor_type, actor_id, submission_id, request_id, idempotency_key, payload,
  created_at)
values (${commandId}, ${workspaceId}, ${o.commandType}, ${o.actor.type}, ${o.actor.id}, ${o.submissionId}, ${o.request.requestId},
  ${o.request.idempotencyKey}, ${JSON.stringify(o.commandPayload)}, ${at})`,
      sql`insert into events (id, workspace_id, command_id, type, payload, created_at)
values (${eventId}, ${workspaceId}, ${commandId}, ${o.eventType}, ${JSON.stringify(o.eventPayload)}, ${at})`,
    ],
    enabledEndpoints(trx, [workspaceId]),
  );
  const recorded = { ...answer, commandId, eventId };
  await enqueueWebhookEvent(
    trx,
    { id: eventId, type: operation.eventType, workspaceId, environment: operation.environment, createdAt: at, data: recorded },
    endpoints,
  );
  return recorded;
}
