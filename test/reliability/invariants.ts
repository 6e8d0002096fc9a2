/**
 * What must hold in the database whatever happened to the processes writing it (crashes, several instances),
 * read directly with Kysely. Each check returns human-readable violations; an empty list means it holds.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/types.ts';
import { OPERATION_RULES } from '../../src/features/applications/rules.ts';

const EVENT_OF_COMMAND: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(OPERATION_RULES).map((rule) => [rule.commandType, rule.eventType]),
);
const COMMAND = {
  mark: OPERATION_RULES.markUnderReview.commandType,
  review: OPERATION_RULES.updateReview.commandType,
  accept: OPERATION_RULES.accept.commandType,
  reject: OPERATION_RULES.reject.commandType,
} as const;

/** No shift half completed or half active; at most one active shift per staff member, application and environment. */
export async function shiftViolations(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('shifts').selectAll().execute();
  const out: string[] = [];
  const active = new Map<string, number>();
  for (const row of rows) {
    if (row.status === 'completed') {
      if (row.ended_at === null || row.end_reason === null) out.push(`shift ${row.id} completed without ended_at/end_reason`);
      else if (row.ended_at < row.started_at) out.push(`shift ${row.id} ends before it starts`);
    } else if (row.status === 'active') {
      if (row.ended_at !== null || row.end_reason !== null) out.push(`shift ${row.id} active with ended_at/end_reason`);
      const owner = `${row.application_id}/${row.environment}/${row.staff_id}`;
      active.set(owner, (active.get(owner) ?? 0) + 1);
    } else {
      out.push(`shift ${row.id} has status ${row.status}`);
    }
    if (row.last_heartbeat_at < row.started_at) out.push(`shift ${row.id} heartbeat before its start`);
  }
  for (const [owner, n] of active) if (n > 1) out.push(`${n} active shifts for ${owner}`);
  return out;
}

/**
 * Every command has exactly one event of the matching type, and each submission's commands agree with its state:
 * one command per applied operation, at most one mark-under-review and at most one decision, which is the status.
 */
export async function submissionViolations(db: Kysely<Database>): Promise<string[]> {
  const [submissions, commands, events] = await Promise.all([
    db.selectFrom('submissions').selectAll().execute(),
    db.selectFrom('commands').selectAll().execute(),
    db.selectFrom('events').selectAll().execute(),
  ]);
  const out: string[] = [];
  const eventsByCommand = new Map<string, typeof events>();
  for (const event of events) {
    const list = eventsByCommand.get(event.command_id) ?? [];
    list.push(event);
    eventsByCommand.set(event.command_id, list);
  }
  const commandIds = new Set(commands.map((c) => c.id));
  for (const event of events) if (!commandIds.has(event.command_id)) out.push(`event ${event.id} without its command`);
  for (const command of commands) {
    const list = eventsByCommand.get(command.id) ?? [];
    if (list.length !== 1) out.push(`command ${command.id} (${command.type}) has ${list.length} events`);
    else if (list[0]?.type !== EVENT_OF_COMMAND[command.type]) {
      out.push(`command ${command.id} (${command.type}) has an event of type ${String(list[0]?.type)}`);
    }
  }
  const bySubmission = new Map<string, typeof commands>();
  for (const command of commands) {
    if (command.submission_id === null) continue;
    const list = bySubmission.get(command.submission_id) ?? [];
    list.push(command);
    bySubmission.set(command.submission_id, list);
  }
  for (const s of submissions) {
    const list = bySubmission.get(s.id) ?? [];
    const count = (type: string) => list.filter((c) => c.type === type).length;
    const [mark, review, accept, reject] = [count(COMMAND.mark), count(COMMAND.review), count(COMMAND.accept), count(COMMAND.reject)];
    const where = `submission ${s.id} (${s.status}; mark ${mark}, review ${review}, accept ${accept}, reject ${reject})`;
    if (mark > 1 || accept + reject > 1) out.push(`${where}: more than one transition of a kind`);
    const expected = { submitted: [0, 0], under_review: [0, 0], accepted: [1, 0], rejected: [0, 1] }[s.status];
    if (!expected) out.push(`${where}: unknown status`);
    else if (accept !== expected[0] || reject !== expected[1]) out.push(`${where}: decision commands disagree with the status`);
    if (s.status === 'submitted' && mark !== 0) out.push(`${where}: marked under review but still submitted`);
    if (s.status === 'under_review' && mark !== 1) out.push(`${where}: under review without its command`);
    if ((s.accepted_at !== null) !== (s.status === 'accepted')) out.push(`${where}: accepted_at disagrees with the status`);
    if ((s.rejected_at !== null) !== (s.status === 'rejected')) out.push(`${where}: rejected_at disagrees with the status`);
    if (mark + review > 0 && s.reviewed_at === null) out.push(`${where}: reviewed without reviewed_at`);
    const keys = list.map((c) => c.idempotency_key);
    if (new Set(keys).size !== keys.length) out.push(`${where}: one idempotency key applied twice`);
  }
  return out;
}

export async function allViolations(db: Kysely<Database>): Promise<string[]> {
  return [...(await shiftViolations(db)), ...(await submissionViolations(db))];
}
