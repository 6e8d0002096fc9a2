import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '../../src/shared/actor.ts';
import type { FormDocument, ProvisioningDocument } from '../../src/provisioning/schema.ts';
import { runCli } from '../helpers/cli.ts';
import type { TestDatabase } from '../helpers/stores.ts';
import { luaSummary, runLua } from './lua.ts';

/**
 * The in-game application centre's side of the end-to-end tests: its form, provisioning through the CLI, and
 * the game-server module's application scenario (clients/roblox/e2e/apply.lua) with the summary it prints.
 */

/** What an application centre's key needs. */
export const CENTRE_SCOPES: readonly Scope[] = ['applications:read', 'applications:write'];

/** An open form: a required long text, a required number with bounds, an optional choice. */
export function centreForm(id: string): FormDocument {
  return {
    id,
    name: 'Moderator application',
    slug: 'moderator',
    status: 'open',
    cooldownDays: 14,
    questions: [
      { id: 'why', label: 'Why do you want to join?', type: 'long_text', required: true, maxLength: 2000 },
      { id: 'age', label: 'How old are you?', type: 'number', required: true, min: 13, max: 99 },
      { id: 'tz', label: 'Time zone', type: 'choice', options: ['EU', 'NA', 'Asia'] },
    ],
  };
}

export interface ProvisionOutput {
  readonly keys: ReadonlyArray<{ readonly id: string; readonly secret?: string }>;
  readonly webhooks: ReadonlyArray<{ readonly id: string; readonly secret?: string }>;
}

/** Applies `document` to `database` with `workspace-gateway provision`, as an operator would. */
export async function provisionWithCli(database: TestDatabase, document: ProvisioningDocument): Promise<ProvisionOutput> {
  const dir = mkdtempSync(join(tmpdir(), 'wsg-centre-'));
  try {
    const file = join(dir, 'provision.json');
    writeFileSync(file, JSON.stringify(document));
    const result = await runCli(['provision', file], { DATABASE_URL: database.url });
    if (result.code !== 0) throw new Error(`provision failed: ${result.stderr}`);
    return JSON.parse(result.stdout) as ProvisionOutput;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface IssueView {
  readonly code: string;
  readonly message: string;
}

/** The parts of one call's result the scenario prints (Lua's empty tables come out as `[]`). */
export interface CallBrief {
  readonly ok: boolean;
  readonly outcome: string;
  readonly status?: number;
  readonly code?: string;
  readonly submissionId?: string;
  readonly retryAfter?: string;
  readonly byQuestion?: Record<string, IssueView[]> | [];
  readonly otherIssues?: unknown[];
  readonly issueCount?: number;
}

export interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly key?: string;
  readonly replayed: boolean;
  readonly lost?: boolean;
}

/** What clients/roblox/e2e/apply.lua prints. */
export interface ApplySummary {
  readonly formId: string;
  readonly gameUserId: string;
  /** Text every answer and the applicant's display name carry, to look for in logs. */
  readonly answerMarker: string;
  readonly form: CallBrief & { id: string; name: string; formStatus: string; questionIds: string[] };
  /** Required answers left out, plus an answer to no question. */
  readonly missing: CallBrief;
  /** Every question answered wrongly for its type, plus an answer to no question. */
  readonly broken: CallBrief;
  /** Answers that fit; the first attempt's answer is lost on the way back. */
  readonly submitted: CallBrief & {
    submissionStatus?: string;
    attempts: number;
    keys: number;
    answerLost: boolean;
    replayed: boolean;
  };
  /** The same applicant and answers again. */
  readonly again: CallBrief;
  readonly status: CallBrief & {
    submissions?: Array<{
      id: string;
      formId: string;
      formName: string;
      status: string;
      createdAt: string;
      /** Absent while undecided (the service's null). */
      decidedAt?: string;
    }>;
  };
  readonly requests: Exchange[];
  readonly logs: string[];
}

/** Runs the application scenario against the gateway at `baseUrl`; rejects unless the script exits 0. */
export async function runApplyScenario(options: {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly formId: string;
  readonly gameUserId: string;
}): Promise<{ readonly summary: ApplySummary; readonly output: string }> {
  const run = await runLua(
    ['e2e/apply.lua'],
    {
      GATEWAY_URL: options.baseUrl,
      GATEWAY_API_KEY: options.apiKey,
      E2E_FORM_ID: options.formId,
      E2E_GAME_USER_ID: options.gameUserId,
    },
    60_000,
  );
  if (run.code !== 0) throw new Error(`e2e/apply.lua exited with ${String(run.code)}:\n${run.stderr}`);
  return { summary: luaSummary<ApplySummary>(run), output: run.stdout + run.stderr };
}
