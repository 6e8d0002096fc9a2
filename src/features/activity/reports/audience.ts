/**
 * Whose activity a read sees (docs/API.md, "Staff in the console"): an API key sees its workspace in its own
 * environment (an `environment` query parameter does not change that); a member's dashboard token sees the member's
 * workspace (workspaces/membership.ts) in the environment the query names, `live` by default.
 */
import type { Actor, Environment } from '../../../shared/actor.ts';
import { memberWorkspaceId } from '../../workspaces/membership.ts';
import type { ReportAudience } from './repository.ts';

export type { ReportAudience } from './repository.ts';

export function readerAudience(actor: Actor, environment: Environment | undefined): ReportAudience {
  if (actor.kind === 'apiKey') {
    return { workspaceId: actor.application.workspaceId, environment: actor.environment, unconfirmedKey: actor.unconfirmedKey };
  }
  return { workspaceId: memberWorkspaceId(actor), environment: environment ?? 'live' };
}
