/**
 * A workspace's Roblox group and ranks in the provisioning document (docs/ROBLOX.md): their checks and their
 * writing, in applyProvisioning's transaction. The secrets (`apiKey`, `webhookSecret`) are stored for the
 * gateway's own use: no message here, and nothing this returns, ever carries them.
 */
import type { Executor, RankTable } from '../db/types.ts';
import { jsonPath, type ProvisioningIssue } from './errors.ts';
import { findRanksOfWorkspaces, replaceRanks, upsertRobloxSettings } from './roblox-repository.ts';
import type { ProvisioningDocument, WorkspaceDocument } from './schema.ts';

interface KnownRank {
  readonly name: string;
  readonly assignable: boolean;
}

/** The ranks a workspace has once the document is applied: the document's when it lists them, else the stored ones. */
async function ranksAfter(db: Executor, document: ProvisioningDocument): Promise<Map<string, KnownRank[]>> {
  const unlisted = document.workspaces.filter((w) => w.ranks === undefined).map((w) => w.id);
  const stored = await findRanksOfWorkspaces(db, unlisted);
  const ranks = new Map<string, KnownRank[]>();
  for (const row of stored) {
    ranks.set(row.workspace_id, [...(ranks.get(row.workspace_id) ?? []), { name: row.name, assignable: row.assignable === 1 }]);
  }
  for (const workspace of document.workspaces) {
    if (workspace.ranks === undefined) continue;
    ranks.set(
      workspace.id,
      workspace.ranks.map((rank) => ({ name: rank.name, assignable: rank.assignable !== false })),
    );
  }
  return ranks;
}

function workspaceIssues(workspace: WorkspaceDocument, w: number, ranks: readonly KnownRank[], report: (path: string, message: string) => void) {
  const at = (...rest: Array<string | number>) => jsonPath('workspaces', w, ...rest);
  const names = new Map<string, number>();
  const orders = new Map<number, number>();
  (workspace.ranks ?? []).forEach((rank, i) => {
    const name = names.get(rank.name);
    if (name !== undefined) report(at('ranks', i, 'name'), `rank "${rank.name}" is already listed at ${at('ranks', name)}`);
    else names.set(rank.name, i);
    const order = orders.get(rank.order);
    if (order !== undefined) report(at('ranks', i, 'order'), `order ${rank.order} is already used at ${at('ranks', order)}`);
    else orders.set(rank.order, i);
  });
  const byName = new Map(ranks.map((rank) => [rank.name, rank]));
  const list = ranks.map((rank) => `"${rank.name}"`).join(', ');
  if (ranks.length > 0) {
    (workspace.staff ?? []).forEach((staff, i) => {
      if (staff.rank != null && !byName.has(staff.rank)) {
        report(at('staff', i, 'rank'), `"${staff.rank}" is not a rank of this workspace (one of ${list})`);
      }
    });
  }
  (workspace.forms ?? []).forEach((form, i) => {
    if (form.entryRank == null) return;
    const rank = byName.get(form.entryRank);
    if (rank === undefined) report(at('forms', i, 'entryRank'), `"${form.entryRank}" is not a rank of this workspace`);
    else if (!rank.assignable) report(at('forms', i, 'entryRank'), `"${form.entryRank}" is not assignable`);
  });
}

/** The checks of `roblox`, `ranks`, staff ranks and forms' entry ranks, against what the database holds. */
export async function robloxIssues(db: Executor, document: ProvisioningDocument): Promise<ProvisioningIssue[]> {
  const issues: ProvisioningIssue[] = [];
  const ranks = await ranksAfter(db, document);
  document.workspaces.forEach((workspace, w) =>
    workspaceIssues(workspace, w, ranks.get(workspace.id) ?? [], (path, message) => issues.push({ path, message })),
  );
  return issues;
}

/** Writes each workspace's group and ranks that the document gives; a workspace without them keeps its own. */
export async function writeRoblox(db: Executor, document: ProvisioningDocument, now: number): Promise<void> {
  for (const workspace of document.workspaces) {
    if (workspace.roblox !== undefined) {
      const { groupId, apiKey, webhookSecret } = workspace.roblox;
      await upsertRobloxSettings(db, { workspaceId: workspace.id, groupId, apiKey, webhookSecret, now });
    }
    if (workspace.ranks !== undefined) {
      const rows: RankTable[] = workspace.ranks.map((rank) => ({
        workspace_id: workspace.id,
        name: rank.name,
        role_id: rank.roleId ?? null,
        rank_order: rank.order,
        assignable: rank.assignable === false ? 0 : 1,
      }));
      await replaceRanks(db, workspace.id, rows);
    }
  }
}
