/**
 * The one workspace a member's workspace-wide read covers (the roster, a staff member's page, the leaderboard and
 * the active list with a dashboard token; docs/API.md, "Staff in the console"): the one named by
 * `X-Service-Workspace-Id` (membership already checked by the dashboard authenticator, 403 otherwise), else the
 * caller's only workspace. A caller who is a member of no workspace: 403 `workspace_access_denied`. A member of
 * several who named none: 400, since a roster mixes no workspaces (each has its own time zone and requirement).
 */
import type { UserActor } from '../../shared/actor.ts';
import { AppError, validationError } from '../../shared/errors.ts';

export function memberWorkspaceId(actor: UserActor): string {
  if (actor.selectedWorkspaceId !== null) return actor.selectedWorkspaceId;
  const ids = [...actor.memberships.keys()];
  const [only] = ids;
  if (only === undefined) throw new AppError('workspace_access_denied', 'You are not a member of any workspace.');
  if (ids.length > 1) {
    throw validationError(
      [{ path: 'headers.x-service-workspace-id', message: 'is required when the caller is a member of several workspaces' }],
      'Name the workspace in X-Service-Workspace-Id: you are a member of several.',
    );
  }
  return only;
}
