import { hashApiKey } from '../auth/keys/api-key.ts';
import { ENTITY_LABELS, ownersOf, type EntityEntry, type EntityKind } from './entities.ts';
import { jsonPath, type ProvisioningIssue } from './errors.ts';
import type { ProvisioningDocument, WorkspaceDocument } from './schema.ts';
import { memberChatKey, pendingKey, type OwnedKind, type Snapshot } from './snapshot.ts';

/**
 * Rules that need the database as well as the document: references resolve within their workspace, entities
 * never move between workspaces (or keys between applications), and unique values stay unique once applied.
 */
export function consistencyIssues(
  document: ProvisioningDocument,
  entries: readonly EntityEntry[],
  snapshot: Snapshot,
): ProvisioningIssue[] {
  const issues: ProvisioningIssue[] = [];
  const report = (path: string, message: string) => issues.push({ path, message });
  checkOwnership(entries, snapshot, report);
  checkKeys(document, snapshot, report);
  checkReferences(document, entries, snapshot, report);
  checkSlugs(document, snapshot, report);
  checkGameUserIds(document, snapshot, report);
  checkPendingSubmissions(document, snapshot, report);
  checkMemberChatUsers(document, snapshot, report);
  return issues;
}

type Report = (path: string, message: string) => void;

function isOwnedKind(kind: EntityKind): kind is OwnedKind {
  return kind !== 'workspace' && kind !== 'key';
}

function checkOwnership(entries: readonly EntityEntry[], snapshot: Snapshot, report: Report): void {
  for (const entry of entries) {
    if (!isOwnedKind(entry.kind)) continue;
    const owner = snapshot.owners.get(entry.kind)?.get(entry.id);
    if (owner !== undefined && owner !== entry.workspaceId) {
      report(
        `${entry.path}.id`,
        `${ENTITY_LABELS[entry.kind]} ${entry.id} already exists in workspace ${owner}; ` +
          'an entity cannot move to another workspace',
      );
    }
  }
}

function checkKeys(document: ProvisioningDocument, snapshot: Snapshot, report: Report): void {
  document.workspaces.forEach((workspace, w) => {
    (workspace.applications ?? []).forEach((application, a) => {
      application.keys.forEach((key, k) => {
        const at = (field: string) => jsonPath('workspaces', w, 'applications', a, 'keys', k, field);
        const existing = snapshot.keys.get(key.id);
        if (existing && existing.applicationId !== application.id) {
          report(at('id'), `key ${key.id} already belongs to application ${existing.applicationId}; a key cannot move`);
        }
        if (existing && existing.environment !== key.environment) {
          const message = `key ${key.id} already exists as a ${existing.environment} key; its environment cannot change`;
          report(at('environment'), message);
        }
        if (key.secret === undefined) return;
        const hash = hashApiKey(key.secret);
        const holder = snapshot.keyIdByHash.get(hash);
        if (existing && existing.keyHash !== hash) {
          const message = `differs from the stored secret of key ${key.id}; a key's secret never changes (use a new key id)`;
          report(at('secret'), message);
        } else if (holder !== undefined && holder !== key.id) {
          report(at('secret'), `is already the secret of another key (${holder})`);
        }
      });
    });
  });
}

interface Reference {
  readonly kind: OwnedKind;
  readonly id: string;
  readonly path: string;
}

function workspaceReferences(workspace: WorkspaceDocument, w: number): Reference[] {
  const refs: Reference[] = [];
  (workspace.staff ?? []).forEach((staff, i) => {
    if (staff.departmentId) {
      refs.push({ kind: 'department', id: staff.departmentId, path: jsonPath('workspaces', w, 'staff', i, 'departmentId') });
    }
  });
  (workspace.forms ?? []).forEach((form, i) => {
    if (form.departmentId) {
      refs.push({ kind: 'department', id: form.departmentId, path: jsonPath('workspaces', w, 'forms', i, 'departmentId') });
    }
  });
  (workspace.submissions ?? []).forEach((submission, i) => {
    if (submission.formId) {
      refs.push({ kind: 'form', id: submission.formId, path: jsonPath('workspaces', w, 'submissions', i, 'formId') });
    }
  });
  (workspace.inactivityNotices ?? []).forEach((notice, i) => {
    refs.push({ kind: 'staff', id: notice.staffId, path: jsonPath('workspaces', w, 'inactivityNotices', i, 'staffId') });
  });
  (workspace.shifts ?? []).forEach((shift, i) => {
    refs.push({ kind: 'staff', id: shift.staffId, path: jsonPath('workspaces', w, 'shifts', i, 'staffId') });
    refs.push({ kind: 'application', id: shift.applicationId, path: jsonPath('workspaces', w, 'shifts', i, 'applicationId') });
  });
  return refs;
}

function checkReferences(
  document: ProvisioningDocument,
  entries: readonly EntityEntry[],
  snapshot: Snapshot,
  report: Report,
): void {
  const documentOwners = new Map<OwnedKind, Map<string, string>>(
    (['department', 'staff', 'application', 'form'] as const).map((kind) => [kind, ownersOf(entries, kind)]),
  );
  document.workspaces.forEach((workspace, w) => {
    for (const ref of workspaceReferences(workspace, w)) {
      const label = ENTITY_LABELS[ref.kind];
      const owner = documentOwners.get(ref.kind)?.get(ref.id) ?? snapshot.owners.get(ref.kind)?.get(ref.id);
      if (owner === undefined) {
        report(ref.path, `refers to ${label} ${ref.id}, which is neither in this document nor in the database`);
      } else if (owner !== workspace.id) {
        report(ref.path, `refers to ${label} ${ref.id} of another workspace (${owner}); it must belong to this workspace`);
      }
    }
  });
}

function checkSlugs(document: ProvisioningDocument, snapshot: Snapshot, report: Report): void {
  const slugInDocument = new Map(document.workspaces.map((w) => [w.id, w.slug]));
  document.workspaces.forEach((workspace, w) => {
    const holder = snapshot.workspaceIdBySlug.get(workspace.slug);
    if (holder === undefined || holder === workspace.id) return;
    // The holder gives the slug up when this same document renames it.
    const holderSlugAfter = slugInDocument.get(holder) ?? workspace.slug;
    if (holderSlugAfter === workspace.slug) {
      report(jsonPath('workspaces', w, 'slug'), `slug "${workspace.slug}" is already used by workspace ${holder}`);
    }
  });
}

function checkGameUserIds(document: ProvisioningDocument, snapshot: Snapshot, report: Report): void {
  const gameUserIdInDocument = new Map(
    document.workspaces.flatMap((w) => (w.staff ?? []).map((s): [string, string] => [s.id, s.gameUserId])),
  );
  const holders = new Map<string, string[]>();
  for (const row of snapshot.staff.values()) {
    // The holder gives the game user id up when this same document changes it.
    const after = gameUserIdInDocument.get(row.id) ?? row.gameUserId;
    if (after !== row.gameUserId) continue;
    const key = `${row.workspaceId}\n${row.gameUserId}`;
    holders.set(key, [...(holders.get(key) ?? []), row.id]);
  }
  document.workspaces.forEach((workspace, w) => {
    (workspace.staff ?? []).forEach((staff, i) => {
      const holder = holders.get(`${workspace.id}\n${staff.gameUserId}`)?.find((id) => id !== staff.id);
      if (holder !== undefined) {
        report(
          jsonPath('workspaces', w, 'staff', i, 'gameUserId'),
          `gameUserId "${staff.gameUserId}" is already used by staff member ${holder} of this workspace`,
        );
      }
    });
  });
}

/**
 * An applicant has at most one submission awaiting review per form (docs/API.md, "Applications"): a provisioned
 * `submitted` or `under_review` submission to a form may not meet another, in the document or in the database.
 */
function checkPendingSubmissions(document: ProvisioningDocument, snapshot: Snapshot, report: Report): void {
  const existing = snapshot.owners.get('submission');
  const inDocument = new Map<string, string>();
  document.workspaces.forEach((workspace, w) => {
    (workspace.submissions ?? []).forEach((submission, i) => {
      // Submissions are only inserted when absent: one that exists is left as it is.
      if (submission.formId === undefined || existing?.has(submission.id)) return;
      if (submission.status !== 'submitted' && submission.status !== 'under_review') return;
      const key = pendingKey(submission.formId, submission.applicant.gameUserId);
      const path = jsonPath('workspaces', w, 'submissions', i, 'status');
      const first = inDocument.get(key);
      const stored = snapshot.pendingSubmissions.get(key);
      if (first !== undefined) {
        report(path, `the applicant already has a submission awaiting review on this form at ${first}`);
      } else if (stored !== undefined && stored !== submission.id) {
        report(path, `the applicant already has submission ${stored} awaiting review on this form`);
      }
      if (first === undefined) inDocument.set(key, path);
    });
  });
}

/**
 * A chat user id names at most one member of a workspace (a chat bot's sign-in link finds the member by it): a
 * document member may not take one an existing member keeps. A holder listed in this same document keeps only
 * what the document gives it (two members of the document with one chat user id are document.ts's issue).
 */
function checkMemberChatUsers(document: ProvisioningDocument, snapshot: Snapshot, report: Report): void {
  document.workspaces.forEach((workspace, w) => {
    const listed = new Set((workspace.members ?? []).map((m) => m.userId));
    (workspace.members ?? []).forEach((member, i) => {
      if (member.chatUserId == null) return;
      const holder = snapshot.memberByChatUser.get(memberChatKey(workspace.id, member.chatUserId));
      if (holder === undefined || listed.has(holder)) return;
      report(
        jsonPath('workspaces', w, 'members', i, 'chatUserId'),
        `chatUserId "${member.chatUserId}" is already used by member "${holder}" of this workspace`,
      );
    });
  });
}
