/**
 * Discord interaction responses (docs/DISCORD.md): every message sets `allowed_mentions: { parse: [] }`, so no
 * name or reason a person typed pings anyone; a refusal or a private answer is ephemeral (`flags: 64`).
 */
import {
  ButtonStyle,
  ComponentType,
  InteractionResponseType,
  MessageFlags,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIInteractionResponse,
} from 'discord-api-types/v10';
import type { Static } from '@sinclair/typebox';
import type { InteractionResponseSchema } from './schemas.ts';

/** Discord's interaction response, in the shapes the API documents for it (InteractionResponseSchema). */
export type InteractionResponse = APIInteractionResponse & Static<typeof InteractionResponseSchema>;

export const NO_MENTIONS = { parse: [] as [] };
/** Discord's limit on a message's text. */
const CONTENT_MAX = 2000;

export type ButtonRow = APIActionRowComponent<APIButtonComponent>;

function fit(content: string): string {
  return content.length <= CONTENT_MAX ? content : `${content.slice(0, CONTENT_MAX - 1)}…`;
}

/** A reply only the person who used the command sees. */
export function ephemeral(content: string, components: ButtonRow[] = []): InteractionResponse {
  return {
    type: InteractionResponseType.ChannelMessageWithSource,
    data: { content: fit(content), flags: MessageFlags.Ephemeral, allowed_mentions: NO_MENTIONS, components },
  };
}

/** A reply the whole channel sees. */
export function publicReply(content: string): InteractionResponse {
  return { type: InteractionResponseType.ChannelMessageWithSource, data: { content: fit(content), allowed_mentions: NO_MENTIONS } };
}

/** The message a button belongs to, replaced. */
export function updateMessage(content: string, components: ButtonRow[]): InteractionResponse {
  return { type: InteractionResponseType.UpdateMessage, data: { content: fit(content), allowed_mentions: NO_MENTIONS, components } };
}

export const PONG: InteractionResponse = { type: InteractionResponseType.Pong };

/** A notice's row of buttons (rows follow the message's numbered list); the custom id says what and which. */
export function decisionButtons(noticeId: string): ButtonRow {
  return {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Success, label: 'Approve', custom_id: `notice:approve:${noticeId}` },
      { type: ComponentType.Button, style: ButtonStyle.Danger, label: 'Deny', custom_id: `notice:deny:${noticeId}` },
    ],
  };
}

/** Reads a decision button's custom id. */
export function parseDecisionButton(customId: string): { decision: 'approve' | 'deny'; noticeId: string } | null {
  const match = /^notice:(approve|deny):([0-9a-fA-F-]{36})$/.exec(customId);
  return match ? { decision: match[1] as 'approve' | 'deny', noticeId: match[2]! } : null;
}

/** Text a person typed, shown as text: Discord's markdown characters escaped. */
export function plain(text: string): string {
  return text.replace(/([\\*_~`|[\]])/g, '\\$1').replace(/\n+/g, ' ');
}

/** Discord renders `<t:seconds:style>` in each reader's own time zone. */
export function discordTime(iso: string, style: 'f' | 'R' | 'D' = 'f'): string {
  return `<t:${Math.floor(Date.parse(iso) / 1000)}:${style}>`;
}

/** A notice's days in the workspace's zone: `start` to the last day (its end is the next day's 00:00). */
export function noticeDays(startsAt: string, endsAt: string, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone });
  const first = day.format(Date.parse(startsAt));
  const last = day.format(Date.parse(endsAt) - 1);
  return first === last ? first : `${first} to ${last}`;
}

export function minutes(value: number): string {
  return value === 1 ? '1 minute' : `${value} minutes`;
}
