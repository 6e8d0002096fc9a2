import { AppError } from '../../shared/errors.ts';
import type { ChatBinding } from './workspace.ts';

export function isChatConnected(chat: ChatBinding): boolean {
  return chat.status === 'connected' && chat.guildId !== null;
}

/**
 * The guild header is a consistency check against the workspace's connected binding; it never selects a
 * workspace.
 */
export function assertGuildMatches(chat: ChatBinding, guildId: string): void {
  if (!isChatConnected(chat)) {
    throw new AppError('chat_not_connected', 'This workspace has no connected chat guild.');
  }
  if (chat.guildId !== guildId) {
    throw new AppError('guild_mismatch', 'X-Chat-Guild-Id does not match the guild connected to this workspace.');
  }
}
