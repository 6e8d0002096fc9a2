import { SCOPES, type ApiKeyActor, type Scope } from '../../shared/actor.ts';
import { toIsoOrNull } from '../../shared/clock.ts';
import type { Executor } from '../../db/types.ts';
import { notFound } from '../../shared/errors.ts';
import { assertGuildMatches, isChatConnected } from '../workspaces/chat-binding.ts';
import { findWorkspace } from '../workspaces/workspace.ts';
import type { IntegrationContext } from './schemas.ts';

export interface IntegrationServiceDeps {
  readonly db: Executor;
}

/** Scopes are checked when keys are provisioned; the answer lists the known ones only. */
function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function createIntegrationService({ db }: IntegrationServiceDeps) {
  return {
    async context(actor: ApiKeyActor, guildId: string | undefined): Promise<IntegrationContext> {
      const workspace = await findWorkspace(db, actor.application.workspaceId);
      if (!workspace) throw notFound('The workspace');
      if (guildId !== undefined) assertGuildMatches(workspace.chat, guildId);
      return {
        application: { id: actor.application.id, name: actor.application.name },
        workspace: { id: workspace.id, name: workspace.name, slug: workspace.slug },
        environment: actor.environment,
        scopes: actor.scopes.filter(isScope),
        features: { ...actor.application.features },
        chat: {
          connected: isChatConnected(workspace.chat),
          guildId: workspace.chat.guildId,
          status: workspace.chat.status,
          connectedAt: toIsoOrNull(workspace.chat.connectedAt),
        },
      };
    },
  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
