/**
 * Every refusal a command can meet, as one sentence a staff member understands (docs/DISCORD.md, "Commands"):
 * never a code or a stack. The gateway's own refusals (sections of docs/API.md on staff, time off and the console)
 * come as error codes; these are their words in Discord.
 */
export interface Refusal {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export type CommandKind = 'activity' | 'loa-request' | 'loa-list' | 'loa-cancel' | 'decide' | 'review' | 'list';

const NOT_STAFF = 'You are not on the staff of this community, so there is nothing to show here.';
const FINALIZED: Readonly<Record<string, string>> = {
  approved: 'That time off is already over; there is nothing to cancel.',
  denied: 'That request was denied; there is nothing to cancel.',
  cancelled: 'That request is already cancelled.',
};

/** What a `validation_failed` answer to `/loa request` means, from the fields it names. */
function requestProblems(refusal: Refusal): string {
  const issues = Array.isArray(refusal.details?.issues) ? (refusal.details.issues as unknown[]) : [];
  const text = issues.map((issue) => JSON.stringify(issue)).join(' ');
  const problems: string[] = [];
  if (text.includes('body.reason')) problems.push(text.includes('empty') ? 'Tell the managers why (a short reason).' : 'Keep the reason to 500 characters.');
  if (text.includes('body.startsAt')) problems.push('Time off can start at most 7 days ago.');
  if (text.includes('body.endsAt')) {
    if (text.includes('after startsAt')) problems.push('The last day must not come before the first day.');
    else if (text.includes('after now')) problems.push('That time off is already over.');
    else problems.push('That is longer than this community allows for one notice; ask for a shorter period.');
  }
  return problems.length > 0 ? problems.join(' ') : 'Those dates or that reason cannot be used; check them and try again.';
}

/** The sentence for a refusal of a command of this kind. */
export function refusalSentence(kind: CommandKind, refusal: Refusal): string {
  switch (refusal.code) {
    case 'not_found':
      if (kind === 'review') return 'Only members of this community\'s team can open the console; ask an administrator to add you.';
      if (kind === 'loa-cancel') return 'You have no time off with that id; `/loa list` shows yours.';
      if (kind === 'decide') return 'That notice is not one of this server\'s; nothing was changed.';
      return NOT_STAFF;
    case 'chat_not_connected':
    case 'guild_mismatch':
      return 'This Discord server is not linked to a workspace of this community.';
    case 'staff_inactive':
      return 'Your staff profile is inactive, so you cannot ask for time off here. Talk to a manager.';
    case 'validation_failed':
      return kind === 'loa-request' ? requestProblems(refusal) : 'That cannot be used here; check what you typed and try again.';
    case 'notice_overlap':
      return kind === 'decide'
        ? 'Another approved time off of this staff member overlaps this one; deny one of them or cancel the other first.'
        : 'You already have time off during these dates (`/loa list` shows it). Pick other dates, or cancel it first with `/loa cancel`.';
    case 'notice_finalized':
      return FINALIZED[String(refusal.details?.status ?? '')] ?? 'That notice can no longer be cancelled.';
    case 'invalid_state_transition':
      return `That notice was already ${String(refusal.details?.status ?? 'decided')}; nothing was changed.`;
    case 'permission_denied':
      return 'Only managers who may decide time off can do this.';
    case 'idempotency_request_in_progress':
      return 'Your previous command is still being handled; try again in a moment.';
    case 'idempotency_key_reused':
      return 'Discord sent this command twice with different contents; run it again.';
    case 'service_unavailable':
      return 'The community\'s gateway is busy or its database is unreachable right now; try again in a minute.';
    default:
      return 'Something went wrong on the community\'s gateway; try again in a minute, and tell an administrator if it keeps happening.';
  }
}
