import { jsonPath } from './errors.ts';
import type { ProvisioningDocument, WorkspaceDocument } from './schema.ts';

export type EntityKind =
  | 'workspace'
  | 'department'
  | 'staff'
  | 'notice'
  | 'application'
  | 'key'
  | 'form'
  | 'submission'
  | 'shift';

/** One id-bearing entity of the document, where it sits, and what owns it. */
export interface EntityEntry {
  readonly kind: EntityKind;
  readonly id: string;
  readonly workspaceId: string;
  /** The application a key belongs to; null for every other kind. */
  readonly applicationId: string | null;
  /** JSON path of the entity object (append `.id` for its id). */
  readonly path: string;
}

export const ENTITY_LABELS: Readonly<Record<EntityKind, string>> = {
  workspace: 'workspace',
  department: 'department',
  staff: 'staff member',
  notice: 'inactivity notice',
  application: 'application',
  key: 'key',
  form: 'form',
  submission: 'submission',
  shift: 'shift',
};

type ListName = 'departments' | 'staff' | 'inactivityNotices' | 'applications' | 'forms' | 'submissions' | 'shifts';

const WORKSPACE_LISTS: ReadonlyArray<readonly [ListName, EntityKind]> = [
  ['departments', 'department'],
  ['staff', 'staff'],
  ['inactivityNotices', 'notice'],
  ['applications', 'application'],
  ['forms', 'form'],
  ['submissions', 'submission'],
  ['shifts', 'shift'],
];

function workspaceEntities(workspace: WorkspaceDocument, w: number): EntityEntry[] {
  const entries: EntityEntry[] = [
    { kind: 'workspace', id: workspace.id, workspaceId: workspace.id, applicationId: null, path: jsonPath('workspaces', w) },
  ];
  for (const [list, kind] of WORKSPACE_LISTS) {
    (workspace[list] ?? []).forEach((item, i) => {
      const path = jsonPath('workspaces', w, list, i);
      entries.push({ kind, id: item.id, workspaceId: workspace.id, applicationId: null, path });
    });
  }
  (workspace.applications ?? []).forEach((application, a) => {
    application.keys.forEach((key, k) => {
      entries.push({
        kind: 'key',
        id: key.id,
        workspaceId: workspace.id,
        applicationId: application.id,
        path: jsonPath('workspaces', w, 'applications', a, 'keys', k),
      });
    });
  });
  return entries;
}

/** Every id-bearing entity of the document, in document order. */
export function documentEntities(document: ProvisioningDocument): EntityEntry[] {
  return document.workspaces.flatMap((workspace, w) => workspaceEntities(workspace, w));
}

/** Id -> owning workspace id for one kind, first occurrence wins (duplicates are reported elsewhere). */
export function ownersOf(entries: readonly EntityEntry[], kind: EntityKind): Map<string, string> {
  const owners = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind === kind && !owners.has(entry.id)) owners.set(entry.id, entry.workspaceId);
  }
  return owners;
}
