/**
 * How a stored JSON copy (a command or event payload, a webhook body, a stored idempotent response) is scrubbed of
 * one person's data (docs/OPERATING.md, "Operating it", "Erasure"). Pure functions: the service finds the rows, these say
 * what each becomes.
 *
 * - An identity object is any object whose `gameUserId` is the erased id (as text or a number). A staff member's
 *   reference (it has a uuid `id`: the staff profile's) takes that profile's anonymised values
 *   (`staffAlias`); any other (an applicant) has its identity fields set to null.
 * - In a copy about one of the erased submissions, the reviewers' notes about the applicant (`reviewNote`,
 *   `reviewerNotes`) become null and any `answers` become empty.
 * - An inactivity notice of an erased staff member (an object whose `id` is one of theirs) has its `reason`, and
 *   its `decisionNote` when one was set, replaced with `erased`, as the notice itself.
 * Everything else is kept as it was: ids, statuses, scores and times stay exact.
 */
import { isUuid } from '../../shared/ids.ts';

/** The identity fields an applicant or a staff member's reference may carry. */
export const IDENTITY_FIELDS = ['gameUserId', 'gameUsername', 'displayName', 'chatUserId'] as const;

/** Free text reviewers wrote about an applicant. */
const NOTE_FIELDS = ['reviewNote', 'reviewerNotes'] as const;

/** The text an erased staff profile's names, username and game user id become: unique, and not the person's. */
export function staffAlias(staffId: string): string {
  return `erased-${staffId.toLowerCase()}`;
}

/** The stored applicant of an erased submission. */
export const ERASED_APPLICANT = JSON.stringify(Object.fromEntries(IDENTITY_FIELDS.map((field) => [field, null])));

/** The stored answers of an erased submission: empty, in the shape they had (a list, or an object by key). */
export function erasedAnswers(stored: string): string {
  return Array.isArray(parseOrNull(stored)) ? '[]' : '{}';
}

/**
 * Text that every stored copy of an identity with that game user id contains (the service writes JSON without
 * spaces, the id as text or as a number): what the copies are searched for, so an id that occurs inside other
 * values (a longer id, a time) does not make every row a candidate.
 */
export function identityPatterns(gameUserId: string): string[] {
  return [`"gameUserId":"${gameUserId}"`, `"gameUserId":${gameUserId},`, `"gameUserId":${gameUserId}}`];
}

export interface ScrubTarget {
  /** The game user id being erased. */
  readonly gameUserId: string;
  /** Whether the copy concerns one of the erased submissions (its notes and answers go too). */
  readonly aboutErasedSubmission: boolean;
  /** The erased staff members' inactivity notices, and what their reasons and notes become. */
  readonly notices?: { readonly ids: ReadonlySet<string>; readonly erased: string };
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIdentityOf(value: Record<string, unknown>, gameUserId: string): boolean {
  const id = value.gameUserId;
  return (typeof id === 'string' && id === gameUserId) || (typeof id === 'number' && String(id) === gameUserId);
}

function scrubValue(value: unknown, target: ScrubTarget): unknown {
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, target));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrubValue(item, target);
  if (isIdentityOf(value, target.gameUserId)) {
    const staffId = typeof value.id === 'string' && isUuid(value.id) ? value.id : null;
    for (const field of IDENTITY_FIELDS) {
      if (!(field in out)) continue;
      out[field] = staffId !== null && field !== 'chatUserId' ? staffAlias(staffId) : null;
    }
  }
  const notices = target.notices;
  if (notices && typeof value.id === 'string' && notices.ids.has(value.id)) {
    if (typeof out.reason === 'string') out.reason = notices.erased;
    if (typeof out.decisionNote === 'string') out.decisionNote = notices.erased;
  }
  if (target.aboutErasedSubmission) {
    for (const field of NOTE_FIELDS) if (field in out) out[field] = null;
    if ('answers' in out) out.answers = Array.isArray(out.answers) ? [] : isRecord(out.answers) ? {} : null;
  }
  return out;
}

/**
 * The JSON text `stored` without the target's data, or null when nothing in it changes (or it is not JSON:
 * the service writes every copy as JSON, so text that is not is left alone).
 */
export function scrubJson(stored: string, target: ScrubTarget): string | null {
  const parsed = parseOrNull(stored);
  if (parsed === null) return null;
  const scrubbed = JSON.stringify(scrubValue(parsed, target));
  return scrubbed === JSON.stringify(parsed) ? null : scrubbed;
}
