/**
 * A delivery to a Discord channel webhook (an endpoint with `format: "discord"`, docs/DISCORD.md, "Channel posts"):
 * `{ embeds: [one embed], allowed_mentions: { parse: [] } }` with a title, the staff member's or applicant's name
 * and the event's facts. Only the fields named here are shown: never an application's answers, a reviewer's
 * notes, a notice's reason or a decision note, since a channel is read by many.
 */
import type { APIEmbed, RESTPostAPIWebhookWithTokenJSONBody } from 'discord-api-types/v10';
import type { Executor } from '../db/types.ts';
import { findApplicant, findStaffName } from './discord-names.ts';

type Json = Record<string, unknown>;

const TITLES: Readonly<Record<string, string>> = {
  'application.submission.submitted': 'New application',
  'application.submission.under_review': 'Application under review',
  'application.submission.review_updated': 'Application review updated',
  'application.submission.accepted': 'Application accepted',
  'application.submission.rejected': 'Application rejected',
  'activity.shift.started': 'Shift started',
  'activity.shift.ended': 'Shift ended',
  'staff.inactivity_notice.requested': 'Time off requested',
  'staff.inactivity_notice.approved': 'Time off approved',
  'staff.inactivity_notice.denied': 'Time off denied',
  'staff.inactivity_notice.cancelled': 'Time off cancelled',
};

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** A name as a channel shows it: never a mention (`allowed_mentions` holds too), at most 256 characters. */
function shown(name: string | undefined): string {
  return (name ?? 'Someone').replace(/[\\*_~`|>[\]]/g, '\\$&').slice(0, 256);
}

function applicantName(applicant: Json): string | undefined {
  return text(applicant.displayName) ?? text(applicant.gameUsername) ?? text(applicant.gameUserId);
}

function field(name: string, value: string | undefined) {
  return value === undefined ? [] : [{ name, value: value.slice(0, 1024), inline: true }];
}

function timestamp(iso: string | undefined): string | undefined {
  return iso === undefined || Number.isNaN(Date.parse(iso)) ? undefined : `<t:${Math.floor(Date.parse(iso) / 1000)}:f>`;
}

/** The embed of an event: its name (looked up when the data does not carry it) and its facts. */
async function embedOf(db: Executor, event: Json): Promise<APIEmbed> {
  const type = text(event.type) ?? '';
  const workspaceId = text(event.workspaceId) ?? '';
  const data = record(event.data);
  const title = TITLES[type] ?? type;
  const base = { title, ...(text(event.createdAt) ? { timestamp: text(event.createdAt) } : {}) };
  if (type.startsWith('activity.shift.')) {
    const shift = record(data.shift);
    return {
      ...base,
      description: shown(text(record(data.staff).displayName)),
      fields: [
        ...field('Started', timestamp(text(shift.startedAt))),
        ...field('Ended', timestamp(text(shift.endedAt))),
        ...field('Minutes', text(shift.minutes)),
        ...field('How it ended', text(shift.endReason)?.replaceAll('_', ' ')),
      ],
    };
  }
  if (type.startsWith('staff.inactivity_notice.')) {
    const notice = record(data.notice);
    const staffId = text(notice.staffId);
    const name = staffId === undefined ? undefined : await findStaffName(db, workspaceId, staffId);
    return {
      ...base,
      description: shown(name),
      fields: [
        ...field('From', timestamp(text(notice.startsAt))),
        ...field('Until', timestamp(text(notice.endsAt))),
        ...field('Status', text(notice.status)),
      ],
    };
  }
  // Submissions: the intake's data carries the applicant; a decision's names only the submission.
  const submission = record(data.submission);
  let applicant = record(submission.applicant);
  const submissionId = text(data.submissionId) ?? text(submission.id);
  if (Object.keys(applicant).length === 0 && submissionId !== undefined) {
    const stored = await findApplicant(db, workspaceId, submissionId);
    applicant = stored === undefined ? {} : record(JSON.parse(stored));
  }
  return {
    ...base,
    description: shown(applicantName(applicant)),
    fields: [...field('Form', text(submission.formName)), ...field('Status', text(data.status) ?? text(submission.status))],
  };
}

/** The body a Discord channel webhook is sent for the event body `standard` (the Standard Webhooks one). */
export async function discordChannelBody(db: Executor, standard: string): Promise<string> {
  const event = record(JSON.parse(standard));
  const body: RESTPostAPIWebhookWithTokenJSONBody = { embeds: [await embedOf(db, event)], allowed_mentions: { parse: [] } };
  return JSON.stringify(body);
}
