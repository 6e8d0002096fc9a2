/**
 * The dataset, as a plan: workspaces, departments, staff, notices, applications and API keys with known
 * secrets, and how many shifts each workspace gets. Deterministic for a (profile, seed, now): a cached database
 * is described again by rebuilding its plan with the `now` it was generated at.
 */
import type { ProvisioningDocument, StaffDocument, WorkspaceDocument } from '../src/provisioning/schema.ts';
import { formQuestions, planApplications, type ApplicationsPlan } from './applications-plan.ts';
import { DATASET_SEED, type Profile } from './profiles.ts';
import { Random } from './random.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export const ENVIRONMENT = 'live';
export const UNIVERSE_ID = '1000001';
export const PLACE_ID = '2000001';
export const SERVER_COUNT = 40;

export interface StaffPlan {
  readonly id: string;
  readonly gameUserId: string;
  readonly chatUserId: string;
  readonly status: 'active' | 'inactive';
  /** Relative share of the workspace's shifts (0: never worked). */
  readonly weight: number;
  /** Epoch ms after which the staff member worked no more shifts (inactive staff), else null. */
  readonly stoppedAt: number | null;
}

export interface KeyPlan {
  readonly id: string;
  readonly secret: string;
}

export interface WorkspacePlan {
  readonly id: string;
  readonly slug: string;
  readonly timezone: string;
  readonly guildId: string;
  readonly applicationId: string;
  readonly key: KeyPlan;
  /** The chat bot's key: `staff:read` and `staff:write` only, as docs/TIME-OFF.md gives it. */
  readonly botKey: KeyPlan;
  readonly staff: readonly StaffPlan[];
  readonly shifts: number;
  /** The application form and its submissions (the big workspace), else null. */
  readonly applications: ApplicationsPlan | null;
  readonly document: WorkspaceDocument;
}

export interface DatasetPlan {
  readonly profile: Profile;
  readonly seed: number;
  /** The instant the data was generated for: shifts end before it. */
  readonly now: number;
  readonly big: WorkspacePlan;
  readonly small: readonly WorkspacePlan[];
  readonly document: ProvisioningDocument;
}

const DEPARTMENTS: ReadonlyArray<{ name: string; weeklyRequiredMinutes: number | null; share: number }> = [
  { name: 'Moderation', weeklyRequiredMinutes: 180, share: 0.3 },
  { name: 'Support', weeklyRequiredMinutes: 120, share: 0.2 },
  { name: 'Events', weeklyRequiredMinutes: null, share: 0.1 },
  { name: 'Development', weeklyRequiredMinutes: 240, share: 0.08 },
  { name: 'Community', weeklyRequiredMinutes: 90, share: 0.12 },
  { name: 'Trust and Safety', weeklyRequiredMinutes: 180, share: 0.08 },
  { name: 'Building', weeklyRequiredMinutes: null, share: 0.04 },
  { name: 'Security', weeklyRequiredMinutes: 120, share: 0.04 },
];
const RANKS = ['Trainee', 'Moderator', 'Moderator', 'Moderator', 'Senior Moderator', 'Lead', 'Administrator'];
const SMALL_TIMEZONES = ['UTC', 'America/New_York', 'Europe/London', 'Asia/Tokyo', 'Australia/Sydney'];

/** The dashboard user who decides a workspace's inactivity notices (a member with `notices.decide` only). */
export function managerId(workspaceIndex: number): string {
  return `bench-manager-${workspaceIndex}`;
}

const iso = (epochMs: number) => new Date(epochMs).toISOString();
const pad = (n: number, width: number) => String(n).padStart(width, '0');

interface WorkspaceSpec {
  readonly index: number;
  readonly slug: string;
  readonly name: string;
  readonly timezone: string;
  readonly staff: number;
  readonly shifts: number;
  readonly departments: boolean;
  /** Submissions to the workspace's application form; 0: no form. */
  readonly submissions: number;
  readonly historyDays: number;
}

function departmentIndex(random: Random): number {
  let u = random.next();
  for (let i = 0; i < DEPARTMENTS.length; i += 1) {
    u -= DEPARTMENTS[i]?.share ?? 0;
    if (u < 0) return i;
  }
  return -1; // the rest: no department
}

function planWorkspace(spec: WorkspaceSpec, random: Random, secrets: Random, now: number): WorkspacePlan {
  const id = random.uuid();
  const applicationId = random.uuid();
  const guildId = `81${pad(spec.index, 16)}`;
  const key: KeyPlan = { id: random.uuid(), secret: `wsk_${ENVIRONMENT}_${secrets.base62(40)}` };
  // From the secrets' stream, so the rest of the plan draws what it drew before the bot had a key.
  const botKey: KeyPlan = { id: secrets.uuid(), secret: `wsk_${ENVIRONMENT}_${secrets.base62(40)}` };
  const departments = spec.departments
    ? DEPARTMENTS.map((d) => ({ id: random.uuid(), name: d.name, weeklyRequiredMinutes: d.weeklyRequiredMinutes }))
    : [];

  // Activity is skewed: a random order of the staff, the k-th worked about (k + 50)^-0.5 as much as the most
  // active (about 10x between both ends); 1% never worked (new), 2% stopped some months ago (inactive).
  const order = Array.from({ length: spec.staff }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = random.int(0, i);
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  const staff: StaffPlan[] = [];
  const staffDocs: StaffDocument[] = [];
  const base = 1_000_000 + spec.index * 100_000;
  for (let i = 0; i < spec.staff; i += 1) {
    const inactive = random.chance(0.02);
    const neverWorked = !inactive && random.chance(0.01);
    const plan: StaffPlan = {
      id: random.uuid(),
      gameUserId: String(base + i),
      chatUserId: `71${pad(spec.index, 4)}${pad(i, 12)}`,
      status: inactive ? 'inactive' : 'active',
      weight: neverWorked ? 0 : ((order[i] ?? 0) + 50) ** -0.5,
      stoppedAt: inactive ? now - random.int(30, 300) * DAY_MS : null,
    };
    staff.push(plan);
    const department = departments.length > 0 ? departmentIndex(random) : -1;
    const override = random.chance(0.03) ? random.int(6, 60) * 10 : null;
    staffDocs.push({
      id: plan.id,
      displayName: `Staff ${pad(spec.index, 2)}-${pad(i, 5)}`,
      gameUserId: plan.gameUserId,
      gameUsername: `staff_${spec.index}_${i}`,
      chatUserId: plan.chatUserId,
      departmentId: departments[department]?.id ?? null,
      rank: random.chance(0.9) ? random.pick(RANKS) : null,
      status: plan.status,
      ...(override === null ? {} : { weeklyRequiredMinutes: override }),
    });
  }

  // About 3% have an approved inactivity notice around now, 1% a pending one.
  const notices = staff.flatMap((s) => {
    const u = random.next();
    if (u >= 0.04) return [];
    const startsAt = now - random.int(1, 10) * DAY_MS;
    return [
      {
        id: random.uuid(),
        staffId: s.id,
        startsAt: iso(startsAt),
        endsAt: iso(startsAt + random.int(3, 21) * DAY_MS),
        reason: 'away',
        status: u < 0.03 ? ('approved' as const) : ('pending' as const),
      },
    ];
  });

  const formId = spec.submissions > 0 ? random.uuid() : null;
  const applications =
    formId === null ? null : planApplications(formId, spec.submissions, spec.historyDays, now, random.int(1, 2 ** 30));
  const document: WorkspaceDocument = {
    id,
    name: spec.name,
    slug: spec.slug,
    timezone: spec.timezone,
    settings: { createStaffProfileOnAccept: false, weeklyRequiredMinutes: 120 },
    chat: { guildId, status: 'connected', connectedAt: iso(now - 400 * DAY_MS) },
    departments,
    members: [
      { userId: `bench-admin-${spec.index}`, permissions: ['applications.review', 'applications.decide'] },
      { userId: managerId(spec.index), permissions: ['notices.decide'] },
    ],
    staff: staffDocs,
    inactivityNotices: notices,
    applications: [
      {
        id: applicationId,
        name: `${spec.name} game`,
        approved: true,
        allowedUniverseIds: [UNIVERSE_ID],
        features: { activity: true, applications: true },
        keys: [
          {
            id: key.id,
            environment: ENVIRONMENT,
            scopes: ['activity:write', 'activity:read', 'staff:read', 'applications:read', 'applications:write'],
            secret: key.secret,
          },
          { id: botKey.id, environment: ENVIRONMENT, scopes: ['staff:read', 'staff:write'], secret: botKey.secret },
        ],
      },
    ],
    ...(formId === null
      ? {}
      : {
          forms: [
            {
              id: formId,
              name: 'Staff application',
              slug: 'staff-application',
              status: 'open' as const,
              description: 'Apply to join the staff team.',
              cooldownDays: 30,
              questions: formQuestions(),
            },
          ],
        }),
  };
  return {
    id,
    slug: spec.slug,
    timezone: spec.timezone,
    guildId,
    applicationId,
    key,
    botKey,
    staff,
    shifts: spec.shifts,
    applications,
    document,
  };
}

export function buildPlan(profile: Profile, now: number, seed = DATASET_SEED): DatasetPlan {
  const random = new Random(seed);
  // Secrets come from their own stream, so they stay stable whatever else the plan draws.
  const secrets = new Random(seed ^ 0x5eed);
  const big = planWorkspace(
    {
      index: 0,
      slug: 'bench-big',
      name: 'Benchmark Big',
      timezone: 'Europe/Berlin',
      staff: profile.big.staff,
      shifts: profile.big.shifts,
      departments: true,
      submissions: profile.submissions,
      historyDays: profile.historyDays,
    },
    random,
    secrets,
    now,
  );
  const small = Array.from({ length: profile.small.count }, (_, i) =>
    planWorkspace(
      {
        index: i + 1,
        slug: `bench-small-${pad(i + 1, 2)}`,
        name: `Benchmark Small ${i + 1}`,
        timezone: SMALL_TIMEZONES[i % SMALL_TIMEZONES.length] ?? 'UTC',
        staff: profile.small.staff,
        shifts: profile.small.shifts,
        departments: i % 2 === 0,
        submissions: 0,
        historyDays: profile.historyDays,
      },
      random,
      secrets,
      now,
    ),
  );
  return {
    profile,
    seed,
    now,
    big,
    small,
    document: { workspaces: [big.document, ...small.map((w) => w.document)] },
  };
}
