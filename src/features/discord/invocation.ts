/**
 * What a command or a button press acts as (docs/DISCORD.md): the workspace its server is, in the workspace's
 * Discord environment, and the Discord user who used it. The services of the API are called as a chat bot's key
 * of that environment would call them, so every rule stays theirs.
 */
import type { ApiKeyActor, Environment } from '../../shared/actor.ts';
import type { ChatContext } from '../staff/service.ts';

export interface Invocation {
  /** The Discord application the interaction came to. */
  readonly applicationId: string;
  /** Discord's interaction id: the idempotency key of a write. */
  readonly interactionId: string;
  readonly workspaceId: string;
  readonly timeZone: string;
  readonly environment: Environment;
  readonly chat: ChatContext;
  /** The Discord user's shown name. */
  readonly userName: string;
  readonly requestId: string;
  /** The gateway's public address, for console sign-in links (worked out when asked for). */
  readonly baseUrl: () => string;
}

/**
 * The actor a Discord command acts as: a key-like actor of the workspace in its Discord environment. Its
 * application id, `discord:<applicationId>`, is what commands recorded from Discord name as their actor.
 */
/** The workspace and environment a read of the interaction's workspace sees (the leaderboard, the shifts on duty). */
export function discordAudience(invocation: Invocation): { readonly workspaceId: string; readonly environment: Environment } {
  return { workspaceId: invocation.workspaceId, environment: invocation.environment };
}

export function discordActor(invocation: Invocation): ApiKeyActor {
  return {
    kind: 'apiKey',
    keyId: `discord:${invocation.applicationId}`,
    environment: invocation.environment,
    scopes: [],
    application: {
      id: `discord:${invocation.applicationId}`,
      name: 'Discord',
      workspaceId: invocation.workspaceId,
      features: {},
      allowedUniverseIds: [],
    },
  };
}
