import type { WorkspaceSettings } from '../workspaces/workspace.ts';
import type { StaffProfile } from './profiles.ts';

/** Weekly requirement precedence: staff override, else department, else workspace setting, else 0. */
export function weeklyRequirement(staff: StaffProfile, settings: WorkspaceSettings): number {
  return (
    staff.weeklyRequiredMinutesOverride ??
    staff.department?.weeklyRequiredMinutes ??
    settings.weeklyRequiredMinutes ??
    0
  );
}
