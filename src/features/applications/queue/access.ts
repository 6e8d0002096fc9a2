import type { UserActor } from '../../../shared/actor.ts';
import { AppError } from '../../../shared/errors.ts';

/** Either permission lets a member read the workspace's submissions, queue and stats. */
const READ_PERMISSIONS = ['applications.review', 'applications.decide'] as const;

function canRead(permissions: ReadonlySet<string> | undefined): boolean {
  return permissions !== undefined && READ_PERMISSIONS.some((p) => permissions.has(p));
}

function permissionDenied(): AppError {
  return new AppError(
    'permission_denied',
    'This operation requires the applications.review or applications.decide permission.',
    { requiredPermissions: [...READ_PERMISSIONS] },
  );
}

/**
 * The workspaces a queue or stats read covers, as the review operations see workspaces (docs/API.md, "Application
 * review"): the selected one, when `X-Service-Workspace-Id` was sent, else every workspace the caller is a member
 * of; of those, the ones where the caller holds `applications.review` or `applications.decide`. None: 403
 * `permission_denied`.
 */
export function readableWorkspaces(actor: UserActor): string[] {
  const candidates = actor.selectedWorkspaceId !== null ? [actor.selectedWorkspaceId] : [...actor.memberships.keys()];
  const readable = candidates.filter((id) => canRead(actor.memberships.get(id))).sort();
  if (readable.length === 0) throw permissionDenied();
  return readable;
}

/**
 * Whether the caller may read a submission of `workspaceId`: 404 when the workspace is not visible to them (not a
 * member, or another workspace is selected), 403 when it is but they hold neither permission there.
 */
export function assertCanReadSubmission(actor: UserActor, workspaceId: string): void {
  const permissions = actor.memberships.get(workspaceId);
  const visible =
    permissions !== undefined && (actor.selectedWorkspaceId === null || actor.selectedWorkspaceId === workspaceId);
  if (!visible) throw new AppError('not_found', 'The submission was not found.');
  if (!canRead(permissions)) throw permissionDenied();
}
