// The demo's workspace: who is in it, what it has, and a week of completed shifts so its reports show activity.
import { SCOPES } from '../shared/actor.ts';
import type { ProvisioningDocument, ShiftDocument, StaffDocument } from '../provisioning/schema.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../shared/clock.ts';

export const DEMO_DATABASE_URL = 'sqlite:./data/demo.db';

/** How long a demo run's test key and tokens work: a forgotten demo database holds no key that works forever. */
export const DEMO_CREDENTIALS_HOURS = 24;

export const DEMO = {
  workspaceId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0001',
  departmentId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0002',
  staffId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0003',
  applicationId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0004',
  formId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0006',
  userId: 'demo-reviewer',
  managerId: 'demo-manager',
  guildId: '100000000000000001',
  chatUserId: '200000000000000001',
  /** The reviewer's chat account: the bot's console sign-in link finds the reviewer by it. */
  reviewerChatUserId: '200000000000000003',
  gameUserId: '1001',
  universeId: '4242',
  /** The staff member whose shift is under way while the demo runs (kept alive by its heartbeats). */
  onShift: { staffId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0007', gameUserId: '1002' },
};

/** The staff: Alice asks for time off in the printed commands, Dana is on shift, Evan only has history. */
const STAFF: readonly StaffDocument[] = [
  { id: DEMO.staffId, displayName: 'Alice', gameUserId: DEMO.gameUserId, gameUsername: 'alice', chatUserId: DEMO.chatUserId },
  { id: DEMO.onShift.staffId, displayName: 'Dana', gameUserId: DEMO.onShift.gameUserId, gameUsername: 'dana' },
  { id: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0008', displayName: 'Evan', gameUserId: '1003', gameUsername: 'evan' },
].map((staff) => ({ ...staff, departmentId: DEMO.departmentId, rank: 'Moderator', status: 'active' as const }));


/**
 * Completed shifts on each of the 7 days before `now`'s (UTC): each staff member on most days, at a fixed hour
 * and length for the day and person. A shift's id is made from its day and person, so a later run on the same
 * database adds the days since and repeats none (provisioning inserts shifts only when absent).
 */
export function demoHistory(now: number): ShiftDocument[] {
  const today = Math.floor(now / DAY_MS);
  const shifts: ShiftDocument[] = [];
  for (let day = today - 7; day < today; day++) {
    STAFF.forEach((staff, person) => {
      if ((day + person) % 4 === 3) return; // a day off now and then
      const start = day * DAY_MS + (15 + 2 * person) * HOUR_MS;
      const minutes = 30 + ((day * 7 + person * 13) % 6) * 15;
      shifts.push({
        id: `8a0f3f4e-1d7b-4c55-9a51-${(day * 16 + person).toString(16).padStart(12, '0')}`,
        staffId: staff.id,
        applicationId: DEMO.applicationId,
        environment: 'test',
        startedAt: new Date(start).toISOString(),
        endedAt: new Date(start + minutes * MINUTE_MS).toISOString(),
        endReason: 'player_left',
        universeId: DEMO.universeId,
        placeId: '1',
        serverId: `demo-server-${1 + person}`,
      });
    });
  }
  return shifts;
}

/** The demo workspace, with a new test key `keyId` that expires at `keyExpiresAt`. */
export function demoDocument(keyId: string, keyExpiresAt: string, now: number): ProvisioningDocument {
  return {
    workspaces: [
      {
        id: DEMO.workspaceId,
        name: 'Demo Community',
        slug: 'demo-community',
        timezone: 'UTC',
        settings: { createStaffProfileOnAccept: true, weeklyRequiredMinutes: 120 },
        chat: { guildId: DEMO.guildId, status: 'connected', connectedAt: '2026-01-01T00:00:00Z' },
        departments: [{ id: DEMO.departmentId, name: 'Moderation', weeklyRequiredMinutes: 180 }],
        members: [
          {
            userId: DEMO.userId,
            permissions: ['applications.review', 'applications.decide', 'staff.create'],
            chatUserId: DEMO.reviewerChatUserId,
          },
          // Decides on time off (docs/TIME-OFF.md), and nothing else.
          { userId: DEMO.managerId, permissions: ['notices.decide'] },
        ],
        staff: [...STAFF],
        applications: [
          {
            id: DEMO.applicationId,
            name: 'Demo game',
            approved: true,
            allowedUniverseIds: [DEMO.universeId],
            features: { activity: true, applications: true },
            keys: [{ id: keyId, environment: 'test', scopes: [...SCOPES], expiresAt: keyExpiresAt }],
          },
        ],
        forms: [
          {
            id: DEMO.formId,
            name: 'Moderator application',
            slug: 'moderator',
            status: 'open',
            cooldownDays: 14,
            questions: [
              { id: 'why', label: 'Why do you want to join?', type: 'long_text', required: true },
              { id: 'age', label: 'How old are you?', type: 'number', required: true, min: 13 },
              { id: 'tz', label: 'Time zone', type: 'choice', options: ['EU', 'NA', 'Asia'] },
              { id: 'rules', label: 'Have you read the rules?', type: 'boolean', required: true },
            ],
          },
        ],
        shifts: demoHistory(now),
      },
    ],
  };
}
