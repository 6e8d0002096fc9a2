/**
 * The names a Discord channel post shows (docs/DISCORD.md, "Channel posts") that its event's data does not carry:
 * a notice's staff member, a review decision's applicant. Read when the post is sent.
 */
import type { Executor } from '../db/types.ts';

/** The staff member's display name, within the workspace. */
export async function findStaffName(db: Executor, workspaceId: string, staffId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('staff')
    .select('display_name')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', staffId)
    .executeTakeFirst();
  return row?.display_name;
}

/** The submission's applicant (its stored JSON), within the workspace. */
export async function findApplicant(db: Executor, workspaceId: string, submissionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('submissions')
    .select('applicant')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', submissionId)
    .executeTakeFirst();
  return row?.applicant;
}
