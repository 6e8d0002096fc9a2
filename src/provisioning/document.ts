import { questionProblems } from '../features/applications/forms/questions.ts';
import { apiKeyEnvironment } from '../auth/keys/api-key.ts';
import { ENTITY_LABELS, documentEntities } from './entities.ts';
import { ProvisioningError, jsonPath, type ProvisioningIssue } from './errors.ts';
import type { ProvisioningDocument, WorkspaceDocument } from './schema.ts';
import { validateStructure } from './structure.ts';

/**
 * Structural validation, then the rules that need only the document itself (time zones, time order, key
 * prefixes, duplicates). Rules that need the database are in consistency.ts. Returns the document with every
 * uuid in lowercase.
 */
export function parseProvisioningDocument(input: unknown): ProvisioningDocument {
  const structure = validateStructure(input);
  if (!structure.ok) throw new ProvisioningError(structure.issues);
  const document = normalizeIds(structure.document);
  const issues = documentIssues(document);
  if (issues.length > 0) throw new ProvisioningError(issues);
  return document;
}

function lower<T extends string | null | undefined>(value: T): T {
  return (typeof value === 'string' ? value.toLowerCase() : value) as T;
}

function normalizeWorkspace(workspace: WorkspaceDocument): WorkspaceDocument {
  return {
    ...workspace,
    id: lower(workspace.id),
    departments: workspace.departments?.map((d) => ({ ...d, id: lower(d.id) })),
    staff: workspace.staff?.map((s) => ({ ...s, id: lower(s.id), departmentId: lower(s.departmentId) })),
    inactivityNotices: workspace.inactivityNotices?.map((n) => ({ ...n, id: lower(n.id), staffId: lower(n.staffId) })),
    applications: workspace.applications?.map((a) => ({
      ...a,
      id: lower(a.id),
      keys: a.keys.map((k) => ({ ...k, id: lower(k.id) })),
    })),
    forms: workspace.forms?.map((f) => ({ ...f, id: lower(f.id), departmentId: lower(f.departmentId) })),
    submissions: workspace.submissions?.map((s) => ({ ...s, id: lower(s.id), formId: lower(s.formId) })),
    shifts: workspace.shifts?.map((s) => ({
      ...s,
      id: lower(s.id),
      staffId: lower(s.staffId),
      applicationId: lower(s.applicationId),
    })),
  };
}

/** Uuids are compared and stored in lowercase. */
export function normalizeIds(document: ProvisioningDocument): ProvisioningDocument {
  return { workspaces: document.workspaces.map(normalizeWorkspace) };
}

export function isTimeZone(name: string): boolean {
  // Offsets such as "+01:00" are not zone names, even where Intl accepts them.
  if (/^[+-]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Epoch ms of a date-time that passed the format check, or NaN (e.g. a leap second). */
export function instant(value: string): number {
  return Date.parse(value);
}

type IssueSink = (path: string, message: string) => void;

function checkInstant(report: IssueSink, path: string, value: string | null | undefined): void {
  if (typeof value === 'string' && Number.isNaN(instant(value))) report(path, 'is not a valid date-time');
}

/** Reports `end` before `start` (or equal to it, unless `allowEqual`). */
function checkOrder(report: IssueSink, path: string, start: string, end: string, allowEqual: boolean): void {
  const [from, to] = [instant(start), instant(end)];
  if (Number.isNaN(from) || Number.isNaN(to)) return;
  if (to < from || (to === from && !allowEqual)) {
    report(path, allowEqual ? 'must not be before startedAt' : 'must be after startsAt');
  }
}

function checkWorkspaceValues(workspace: WorkspaceDocument, w: number, report: IssueSink): void {
  const at = (...rest: Array<string | number>) => jsonPath('workspaces', w, ...rest);
  if (workspace.timezone !== undefined && !isTimeZone(workspace.timezone)) {
    report(at('timezone'), `"${workspace.timezone}" is not an IANA time zone name (e.g. Europe/Berlin, UTC)`);
  }
  checkInstant(report, at('chat', 'connectedAt'), workspace.chat?.connectedAt);
  workspace.inactivityNotices?.forEach((notice, i) => {
    checkInstant(report, at('inactivityNotices', i, 'startsAt'), notice.startsAt);
    checkInstant(report, at('inactivityNotices', i, 'endsAt'), notice.endsAt);
    checkOrder(report, at('inactivityNotices', i, 'endsAt'), notice.startsAt, notice.endsAt, false);
  });
  workspace.applications?.forEach((application, a) => {
    application.keys.forEach((key, k) => {
      checkInstant(report, at('applications', a, 'keys', k, 'expiresAt'), key.expiresAt);
      if (key.secret === undefined) return;
      const environment = apiKeyEnvironment(key.secret);
      const secretPath = at('applications', a, 'keys', k, 'secret');
      if (environment === null) {
        report(secretPath, 'must be an API key: wsk_test_ or wsk_live_ followed by at least 32 base62 characters');
      } else if (environment !== key.environment) {
        report(secretPath, `has the prefix wsk_${environment}_ but the key's environment is ${key.environment}`);
      }
    });
  });
  workspace.submissions?.forEach((submission, i) => {
    checkInstant(report, at('submissions', i, 'createdAt'), submission.createdAt);
  });
  workspace.forms?.forEach((form, f) => {
    const questions = form.questions.map((value, q) => ({ value, path: at('forms', f, 'questions', q, 'id') }));
    checkUnique(questions, (question) => question.id, (question, first) => `question id "${question.id}" is already used at ${first}`, report);
    form.questions.forEach((question, q) => {
      for (const problem of questionProblems(question)) report(at('forms', f, 'questions', q, problem.field), problem.message);
    });
  });
  const slugs = (workspace.forms ?? []).map((value, f) => ({ value, path: at('forms', f, 'slug') }));
  checkUnique(slugs, (form) => form.slug, (form, first) => `form slug "${form.slug}" is already used at ${first}`, report);
  workspace.shifts?.forEach((shift, i) => {
    checkInstant(report, at('shifts', i, 'startedAt'), shift.startedAt);
    checkInstant(report, at('shifts', i, 'endedAt'), shift.endedAt);
    // History import: completed shifts only, so both ends are known.
    checkOrder(report, at('shifts', i, 'endedAt'), shift.startedAt, shift.endedAt, true);
  });
}

/** Reports every value after the first that `keyOf` maps to an already seen key. */
function checkUnique<T>(
  items: ReadonlyArray<{ readonly value: T; readonly path: string }>,
  keyOf: (value: T) => string | undefined,
  describe: (value: T, firstPath: string) => string,
  report: IssueSink,
): void {
  const first = new Map<string, string>();
  for (const { value, path } of items) {
    const key = keyOf(value);
    if (key === undefined) continue;
    const seen = first.get(key);
    if (seen === undefined) first.set(key, path);
    else report(path, describe(value, seen));
  }
}

function checkDuplicates(document: ProvisioningDocument, report: IssueSink): void {
  const entities = documentEntities(document).map((entry) => ({ value: entry, path: `${entry.path}.id` }));
  checkUnique(
    entities,
    (entry) => `${entry.kind}:${entry.id}`,
    (entry, first) => `duplicate ${ENTITY_LABELS[entry.kind]} id; first used at ${first}`,
    report,
  );
  const workspaces = document.workspaces.map((value, w) => ({ value, path: jsonPath('workspaces', w, 'slug') }));
  checkUnique(workspaces, (ws) => ws.slug, (ws, first) => `slug "${ws.slug}" is already used at ${first}`, report);

  document.workspaces.forEach((workspace, w) => {
    const at = (list: string, i: number, field: string) => jsonPath('workspaces', w, list, i, field);
    const members = (workspace.members ?? []).map((value, i) => ({ value, path: at('members', i, 'userId') }));
    checkUnique(members, (m) => m.userId, (m, first) => `member "${m.userId}" is listed twice; first at ${first}`, report);
    const chatMembers = (workspace.members ?? []).flatMap((value, i) =>
      value.chatUserId == null ? [] : [{ value: value.chatUserId, path: at('members', i, 'chatUserId') }],
    );
    checkUnique(
      chatMembers,
      (chatUserId) => chatUserId,
      (chatUserId, first) => `chatUserId "${chatUserId}" is already used by the member at ${first}`,
      report,
    );
    const staff = (workspace.staff ?? []).map((value, i) => ({ value, path: at('staff', i, 'gameUserId') }));
    checkUnique(
      staff,
      (s) => s.gameUserId,
      (s, first) => `gameUserId "${s.gameUserId}" is already used by the staff member at ${first}`,
      report,
    );
  });

  const secrets = document.workspaces.flatMap((workspace, w) =>
    (workspace.applications ?? []).flatMap((application, a) =>
      application.keys.map((value, k) => ({ value, path: jsonPath('workspaces', w, 'applications', a, 'keys', k, 'secret') })),
    ),
  );
  checkUnique(secrets, (key) => key.secret, (_secret, first) => `is the same secret as the key at ${first}`, report);
}

/** Rules that need only the document. */
export function documentIssues(document: ProvisioningDocument): ProvisioningIssue[] {
  const issues: ProvisioningIssue[] = [];
  const report: IssueSink = (path, message) => issues.push({ path, message });
  document.workspaces.forEach((workspace, w) => checkWorkspaceValues(workspace, w, report));
  checkDuplicates(document, report);
  return issues;
}
