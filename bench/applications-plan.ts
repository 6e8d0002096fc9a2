/**
 * The big workspace's application form and its submissions, as a plan: one open form of 20 questions of every
 * type, and `profile.submissions` submissions spread over the history days, oldest first. Most are decided
 * (accepted or rejected); the last few days' are partly still pending (about 3% of all); one in ten carries
 * recorded review commands (its history: submitted, under review, a review update, the decision).
 * Deterministic for a (plan seed, now), like the rest of the plan, so the scenarios know what the data holds
 * without reading it back.
 */
import type { FormDocument } from '../src/provisioning/schema.ts';
import { Random } from './random.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

export const FORM_QUESTION_COUNT = 20;
/** Every submission of this share has recorded review commands. */
const HISTORY_SHARE = 0.1;
/** Pending submissions are this many days old at most: older ones were decided. */
const PENDING_DAYS = 10;
/** Of the submissions of the last PENDING_DAYS days, this share is still pending (about 3% of a year's). */
const RECENT_PENDING_SHARE = 0.9;

const CHOICES = ['Weekday evenings', 'Weekends', 'Mornings', 'Nights', 'Whenever needed'];
const REGIONS = ['Europe', 'North America', 'South America', 'Asia', 'Oceania', 'Africa'];
const TOOLS = ['Logs', 'Reports', 'Moderation panel', 'Ticket system', 'Voice chat', 'Screen recording'];

/** The form's 20 questions: text, long text, numbers, yes/no, one choice and several choices. */
export function formQuestions(): FormDocument['questions'] {
  return [
    { id: 'why', label: 'Why do you want to join the staff team?', type: 'long_text', required: true, maxLength: 2000 },
    { id: 'experience', label: 'Describe your moderation experience.', type: 'long_text', required: true },
    { id: 'scenario', label: 'A player reports another for exploiting. What do you do?', type: 'long_text', required: true },
    { id: 'age', label: 'How old are you?', type: 'number', required: true, min: 13, max: 99 },
    { id: 'hours_per_week', label: 'Hours per week you can give', type: 'number', required: true, min: 1, max: 80 },
    { id: 'months_played', label: 'Months played', type: 'number', min: 0 },
    { id: 'timezone', label: 'Your time zone', type: 'short_text', required: true, maxLength: 64 },
    { id: 'discord_tag', label: 'Chat handle', type: 'short_text', required: true },
    { id: 'referrer', label: 'Who referred you?', type: 'short_text' },
    { id: 'languages', label: 'Languages you speak', type: 'short_text', maxLength: 120 },
    { id: 'previous_staff', label: 'Previous staff roles', type: 'short_text' },
    { id: 'favourite_mode', label: 'Favourite game mode', type: 'short_text' },
    { id: 'microphone', label: 'Do you have a microphone?', type: 'boolean', required: true },
    { id: 'banned_before', label: 'Were you ever banned?', type: 'boolean', required: true },
    { id: 'rules_read', label: 'Have you read the staff rules?', type: 'boolean', required: true },
    { id: 'availability', label: 'When are you usually available?', type: 'choice', required: true, options: CHOICES },
    { id: 'region', label: 'Region', type: 'choice', required: true, options: REGIONS },
    { id: 'department', label: 'Preferred department', type: 'choice', options: ['Moderation', 'Support', 'Events', 'Building'] },
    { id: 'tools', label: 'Tools you have used', type: 'multi_choice', options: TOOLS },
    { id: 'interests', label: 'What interests you?', type: 'multi_choice', options: ['Helping players', 'Events', 'Building', 'Testing'] },
  ];
}

/** A full set of answers, every question answered, varied by `n`: the intake body's and the stored ones' values. */
export function answersFor(n: number, random: Random): Record<string, string | number | boolean | string[]> {
  return {
    why: `I have played for ${1 + (n % 40)} months and want to help keep the community friendly and fair for everyone.`,
    experience: `Moderated a community server of ${100 + (n % 900)} members for a year; handled reports and appeals.`,
    scenario: 'Collect evidence, check the logs, report it to a senior moderator and follow the staff guidelines.',
    age: 16 + (n % 30),
    hours_per_week: 2 + (n % 20),
    months_played: n % 48,
    timezone: 'UTC+01:00',
    discord_tag: `applicant_${n}`,
    referrer: `player_${n % 997}`,
    languages: 'English, German',
    previous_staff: 'Helper on another game',
    favourite_mode: 'Roleplay',
    microphone: random.chance(0.7),
    banned_before: random.chance(0.05),
    rules_read: true,
    availability: random.pick(CHOICES),
    region: random.pick(REGIONS),
    department: 'Moderation',
    tools: [TOOLS[n % TOOLS.length] ?? 'Logs', TOOLS[(n + 2) % TOOLS.length] ?? 'Reports'],
    interests: ['Helping players', 'Events'],
  };
}

export type PlannedStatus = 'submitted' | 'under_review' | 'accepted' | 'rejected';

export interface SubmissionPlan {
  readonly id: string;
  readonly gameUserId: string;
  readonly createdAt: number;
  readonly status: PlannedStatus;
  /** When it was decided (accepted or rejected), else null. */
  readonly decidedAt: number | null;
  /** Whether it has recorded review commands. */
  readonly history: boolean;
}

export interface ApplicationsPlan {
  readonly formId: string;
  readonly submissions: readonly SubmissionPlan[];
  /** Submissions `submitted` or `under_review`: the default queue. */
  readonly pending: number;
}

/** The applicants' game user ids: distinct from the staff's (1,000,000 + …) and the intake scenario's. */
export function applicantGameUserId(n: number): string {
  return String(3_000_000_000 + n);
}

export function planApplications(formId: string, count: number, historyDays: number, now: number, seed: number): ApplicationsPlan {
  const random = new Random(seed);
  const first = now - historyDays * DAY_MS;
  const times = Array.from({ length: count }, () => Math.floor(first + random.next() * (historyDays * DAY_MS - 10 * MINUTE_MS)));
  times.sort((a, b) => a - b);
  let pending = 0;
  const submissions = times.map((createdAt, n): SubmissionPlan => {
    const recent = now - createdAt < PENDING_DAYS * DAY_MS;
    const history = random.chance(HISTORY_SHARE);
    if (recent && random.chance(RECENT_PENDING_SHARE)) {
      pending += 1;
      const status = history || random.chance(0.3) ? 'under_review' : 'submitted';
      return { id: random.uuid(), gameUserId: applicantGameUserId(n), createdAt, status, decidedAt: null, history };
    }
    const decidedAt = Math.min(now - MINUTE_MS, createdAt + random.int(30, 7 * 24 * 60) * MINUTE_MS);
    const status = random.chance(0.35) ? 'accepted' : 'rejected';
    return { id: random.uuid(), gameUserId: applicantGameUserId(n), createdAt, status, decidedAt, history };
  });
  return { formId, submissions, pending };
}
