// The chat bot's `/loa` command: a staff member asks for time off (a leave of absence), lists their notices and
// cancels one, or comes back early from one under way. Managers decide on the dashboard (docs/TIME-OFF.md). The
// bot's key needs `staff:write` and `staff:read`; every refusal becomes a sentence the staff member understands.
//
//   /loa ask 2026-12-01 2026-12-03 Exams week     (whole days in UTC, the last one included)
//   /loa ask 2026-12-01T18:00:00+01:00 2026-12-02T09:00:00+01:00 Travelling
//   /loa list
//   /loa cancel <notice id>
import { GatewayError, type GatewayClient, type SuccessBody } from '@workspace-gateway/client';
import type { CommandContext } from './chat-bot.ts';

export type LoaCommand =
  | { readonly action: 'ask'; readonly from: string; readonly to: string; readonly reason: string }
  | { readonly action: 'list' }
  | { readonly action: 'cancel'; readonly noticeId: string };

export const LOA_USAGE = 'Use `/loa ask <first day> <last day> <reason>`, `/loa list` or `/loa cancel <notice id>`.';

/** The command's words after `/loa`, or null when they are not one of its forms. */
export function parseLoa(words: readonly string[]): LoaCommand | null {
  const [action, ...rest] = words;
  if (action === 'list' && rest.length === 0) return { action };
  if (action === 'cancel' && rest.length === 1 && rest[0]) return { action, noticeId: rest[0] };
  const [from, to, ...reason] = rest;
  if (action === 'ask' && from && to) return { action, from, to, reason: reason.join(' ') };
  return null;
}

type Notice = SuccessBody<'listMyInactivityNotices'>['data']['notices'][number];

const DAY_MS = 86_400_000;
const WHOLE_DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** A first day is its midnight (UTC); a last day is included, so the notice ends at the next midnight. */
function instant(text: string, edge: 'first' | 'last'): number {
  if (!WHOLE_DAY.test(text)) return Date.parse(text);
  const midnight = Date.parse(`${text}T00:00:00Z`);
  return edge === 'last' ? midnight + DAY_MS : midnight;
}

/** "1 December 2026 to 3 December 2026" for whole days, else with the times (UTC). */
export function period(startsAt: string, endsAt: string): string {
  const start = Date.parse(startsAt);
  const end = Date.parse(endsAt);
  if (start % DAY_MS === 0 && end % DAY_MS === 0) {
    const last = end - DAY_MS;
    return last === start ? dayFormat.format(start) : `${dayFormat.format(start)} to ${dayFormat.format(last)}`;
  }
  return `${timeFormat.format(start)} to ${timeFormat.format(end)} UTC`;
}

const STATUS_WORDS: Record<Notice['status'], string> = {
  pending: 'waiting for a manager',
  approved: 'approved',
  denied: 'denied',
  cancelled: 'cancelled',
};

function noticeLine(notice: Notice): string {
  const note = notice.decisionNote ? ` ("${notice.decisionNote}")` : '';
  return `- ${period(notice.startsAt, notice.endsAt)}: ${notice.reason}, ${STATUS_WORDS[notice.status]}${note}. Id: ${notice.id}`;
}

/**
 * What a `validation_failed` answer to an ask means, told from the fields it names and what was sent (the gateway's
 * wording may change); null when it names none of the body's fields.
 */
function whatIsWrong(error: GatewayError, start: number, end: number, reason: string): string | null {
  const fields = new Set((error.details?.issues ?? []).flatMap((issue) => ('path' in issue ? [issue.path] : [])));
  const problems: string[] = [];
  if (fields.has('body.reason')) {
    problems.push(reason.trim() === '' ? 'Tell the managers why (a short reason).' : 'Keep the reason to 500 characters.');
  }
  if (fields.has('body.startsAt')) problems.push('Time off can start at most 7 days ago.');
  if (fields.has('body.endsAt')) {
    if (end <= start) problems.push('The last day must come after the first day.');
    else if (end <= Date.now()) problems.push('That time off is already over.');
    else problems.push('That is longer than this community allows for one notice; ask for a shorter period.');
  }
  return problems.length > 0 ? problems.join(' ') : null;
}

/** The sentence for a refusal every `/loa` action may get; null when the action has its own. */
function commonRefusal(error: GatewayError): string | null {
  switch (error.code) {
    case 'staff_inactive':
      return 'Your staff profile is inactive, so you cannot ask for time off here. Talk to a manager.';
    case 'chat_not_connected':
    case 'guild_mismatch':
      return 'This server is not linked to a workspace.';
    case 'insufficient_scope':
      return `This bot may not handle time off (its key needs \`${error.details?.requiredScope ?? 'staff:write'}\`). Tell an administrator.`;
    case 'unauthenticated':
      return 'This bot is not connected to the gateway any more (its key was refused). Tell an administrator.';
    case 'idempotency_request_in_progress':
      return 'Your previous `/loa` command is still being handled; look at `/loa list` in a moment.';
    case 'idempotency_key_reused':
      return 'This command was already used for something else; run `/loa` again.';
    case 'idempotency_key_required':
    case 'invalid_idempotency_key':
      return 'The bot could not send this command safely (its command id is not usable); please run it again.';
    case 'rate_limited':
      return `Too many requests right now; try again in ${error.retryAfterSeconds ?? 60} s.`;
    default:
      return null;
  }
}

const failed = (error: GatewayError): string => `Something went wrong (${error.code}, request ${error.requestId ?? 'unknown'}).`;

async function ask(gateway: GatewayClient, ctx: CommandContext, command: Extract<LoaCommand, { action: 'ask' }>) {
  const start = instant(command.from, 'first');
  const end = instant(command.to, 'last');
  for (const [text, value] of [[command.from, start], [command.to, end]] as const) {
    if (Number.isNaN(value)) return `I could not read "${text}" as a date; write it like 2026-12-24.`;
  }
  const chat = { chatGuildId: ctx.guildId, actingChatUserId: ctx.chatUserId };
  const body = { startsAt: new Date(start).toISOString(), endsAt: new Date(end).toISOString(), reason: command.reason };
  const options = ctx.commandId ? { correlationId: ctx.commandId, idempotencyKey: ctx.commandId } : {};
  try {
    const { notice } = (await gateway.requestInactivityNotice(chat, body, options)).body.data;
    return `Asked: time off ${period(notice.startsAt, notice.endsAt)}. A manager will decide; \`/loa list\` shows where it stands.`;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    const wrong = error.code === 'validation_failed' ? whatIsWrong(error, start, end, command.reason) : null;
    if (wrong !== null) return wrong;
    if (error.code === 'not_found') return 'You are not on the staff of this community.';
    if (error.code === 'notice_overlap') {
      const mine = await gateway.listMyInactivityNotices(chat).then((r) => r.body.data.notices, () => []);
      const other = mine.find((n) => n.id === error.details?.noticeId);
      const when = other ? ` (${period(other.startsAt, other.endsAt)}, ${STATUS_WORDS[other.status]})` : '';
      return `You already have time off during these dates${when}. Pick other dates, or cancel it first with \`/loa cancel ${error.details?.noticeId ?? '<id>'}\`.`;
    }
    return commonRefusal(error) ?? failed(error);
  }
}

async function list(gateway: GatewayClient, ctx: CommandContext): Promise<string> {
  const chat = { chatGuildId: ctx.guildId, actingChatUserId: ctx.chatUserId };
  try {
    const reply = await gateway.listMyInactivityNotices(chat, ctx.commandId ? { correlationId: ctx.commandId } : {});
    const notices = reply.body.data.notices;
    if (notices.length === 0) return 'You have no time off. Ask with `/loa ask <first day> <last day> <reason>`.';
    return ['**Your time off**', ...notices.map(noticeLine)].join('\n');
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (error.code === 'not_found') return 'You are not on the staff of this community.';
    return commonRefusal(error) ?? failed(error);
  }
}

const FINALIZED: Record<string, string> = {
  approved: 'That time off is already over; there is nothing to cancel.',
  denied: 'That request was denied; there is nothing to cancel.',
  cancelled: 'That request is already cancelled.',
};

async function cancel(gateway: GatewayClient, ctx: CommandContext, noticeId: string): Promise<string> {
  const chat = { chatGuildId: ctx.guildId, actingChatUserId: ctx.chatUserId };
  const options = ctx.commandId ? { correlationId: ctx.commandId, idempotencyKey: ctx.commandId } : {};
  try {
    const { notice } = (await gateway.cancelInactivityNotice(chat, noticeId, options)).body.data;
    if (notice.status === 'cancelled') return `Cancelled: time off ${period(notice.startsAt, notice.endsAt)}.`;
    // An approved notice under way ends now: the staff member is back early, and the days taken still count.
    return `Welcome back! Your time off now ended on ${timeFormat.format(Date.parse(notice.endsAt))} UTC; the time you took still counts.`;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (error.code === 'not_found') return `You have no time off with the id "${noticeId}"; \`/loa list\` shows yours.`;
    if (error.code === 'notice_finalized') return FINALIZED[error.details?.status ?? ''] ?? 'That notice can no longer be cancelled.';
    return commonRefusal(error) ?? failed(error);
  }
}

/** `/loa`: ask for time off, list it, or cancel it (coming back early from time off under way). */
export async function loaCommand(gateway: GatewayClient, ctx: CommandContext, command: LoaCommand): Promise<string> {
  switch (command.action) {
    case 'ask':
      return ask(gateway, ctx, command);
    case 'list':
      return list(gateway, ctx);
    case 'cancel':
      return cancel(gateway, ctx, command.noticeId);
  }
}
