import type { Generated, Kysely, RawBuilder, Transaction } from 'kysely';
import type { Environment } from '../shared/actor.ts';

/**
 * Table shapes. Conventions shared by both stores:
 * - instants are epoch milliseconds (INTEGER / BIGINT),
 * - booleans are 0/1 integers,
 * - JSON documents are TEXT.
 * - an `environment` column holds `test` or `live`, its type says so: every write is typed against it, so a read
 *   needs no check.
 */
export interface WorkspaceTable {
  id: string;
  name: string;
  slug: string;
  timezone: string;
  settings: string;
  create_staff_profile_on_accept: number;
  weekly_required_minutes: number | null;
  chat_guild_id: string | null;
  chat_status: string | null;
  chat_connected_at: number | null;
  /** The longest inactivity notice that may be asked for, in days (settings, see migration 0009). */
  max_notice_days: Generated<number>;
  /** Bumped by every write that changes what reports rank (see migration 0002); read to validate caches. */
  activity_version: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface DepartmentTable {
  id: string;
  workspace_id: string;
  name: string;
  weekly_required_minutes: number | null;
}

export interface MemberTable {
  workspace_id: string;
  user_id: string;
  permissions: string;
  /** The member's chat user id (1..32 digits), by which a chat bot's sign-in link finds them (migration 0012). */
  chat_user_id: string | null;
}

export interface StaffTable {
  id: string;
  workspace_id: string;
  display_name: string;
  game_user_id: string;
  game_username: string;
  chat_user_id: string | null;
  department_id: string | null;
  rank: string | null;
  status: string;
  weekly_required_minutes: number | null;
  created_at: number;
}

export interface InactivityNoticeTable {
  id: string;
  workspace_id: string;
  staff_id: string;
  starts_at: number;
  ends_at: number;
  reason: string;
  status: string;
  /** The asking key's environment; `live` for a provisioned notice. */
  environment: Environment;
  /** When it was asked for (a provisioned one: when first written). */
  created_at: number;
  /** Set by an approval or a denial, else null. */
  decided_at: number | null;
  decision_note: string | null;
  /** The deciding member's user id. */
  decided_by: string | null;
  /** `provisioned` or `api`: a provisioning document rewrites only the notices it wrote (see migration 0009). */
  origin: string;
}

export interface ApplicationTable {
  id: string;
  workspace_id: string;
  name: string;
  approved: number;
  allowed_universe_ids: string;
  features: string;
}

export interface ApiKeyTable {
  id: string;
  application_id: string;
  environment: Environment;
  key_hash: string;
  scopes: string;
  revoked: number;
  expires_at: number | null;
  created_at: number;
}

export interface SubmissionTable {
  id: string;
  workspace_id: string;
  status: string;
  score: number | null;
  reviewer_notes: string | null;
  applicant: string;
  answers: string;
  created_at: number;
  reviewed_at: number | null;
  accepted_at: number | null;
  rejected_at: number | null;
  staff_profile_id: string | null;
  updated_at: number;
  /** The form it answers; null for a provisioned submission without one. */
  form_id: string | null;
  /** The intake key's environment; `live` for a provisioned submission. */
  environment: Environment;
  /** The applicant's game user id, copied out of `applicant` to be indexed; null once erased. */
  game_user_id: string | null;
}

/** An application form; `questions` is the current question list as JSON, every default filled in. */
export interface ApplicationFormTable {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  status: string;
  description: string | null;
  department_id: string | null;
  cooldown_days: number;
  questions: string;
  created_at: number;
  updated_at: number;
  /** The rank an acceptance that creates a staff profile gives it (docs/ROBLOX.md). */
  entry_rank: string | null;
}

/** That an erasure ran: when, and how many rows of each kind it changed (never whose data it was). */
export interface ErasureTable {
  id: string;
  ran_at: number;
  changes: string;
}

export interface CommandTable {
  id: string;
  workspace_id: string;
  type: string;
  actor_type: string;
  actor_id: string;
  submission_id: string | null;
  request_id: string;
  idempotency_key: string | null;
  payload: string;
  created_at: number;
}

export interface EventTable {
  id: string;
  workspace_id: string;
  command_id: string;
  type: string;
  payload: string;
  created_at: number;
}

export interface ShiftTable {
  id: string;
  workspace_id: string;
  application_id: string;
  environment: Environment;
  staff_id: string;
  universe_id: string;
  place_id: string;
  server_id: string;
  status: string;
  started_at: number;
  last_heartbeat_at: number;
  /** Server-clock instant of the last start or heartbeat received: liveness is judged by it. */
  last_seen_at: number;
  ended_at: number | null;
  end_reason: string | null;
  created_at: number;
}

export interface IdempotencyRecordTable {
  scope: string;
  key: string;
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  request_id: string;
  created_at: number;
  locked_until: number;
}

export interface WebhookEndpointTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event types, or `["*"]`. */
  events: string;
  enabled: number;
  /** `whsec_…`: the service signs with it, so it is stored readable; never logged. */
  secret: string;
  created_at: number;
  updated_at: number;
  /** `standard` or `discord`: what a delivery's body is (see migration 0016). */
  format: Generated<string>;
}

export interface WebhookEventTable {
  id: string;
  workspace_id: string;
  type: string;
  environment: Environment | null;
  /** The exact JSON body POSTed, the same on every retry. */
  body: string;
  created_at: number;
}

export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  workspace_id: string;
  /** pending | delivered | failed */
  status: string;
  attempts: number;
  next_attempt_at: number;
  /** No retry is scheduled after this instant: the delivery is marked failed. */
  expires_at: number;
  /** Lease of the instance sending it; a lapsed lease (a crash) makes it claimable again. */
  claimed_until: number | null;
  claimed_by: string | null;
  last_status: number | null;
  last_duration_ms: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  status: number | null;
  error: string | null;
  response_excerpt: string | null;
}

/** Running totals of completed time per staff member and bucket (see migration 0004). */
export interface ActivityTotalsTable {
  workspace_id: string;
  environment: Environment;
  /** `day`, `week` or `month` of the workspace time zone. */
  grain: string;
  bucket_start: number;
  staff_id: string;
  worked_ms: number;
  started_shifts: number;
  carried_shifts: number;
}

/** An upper bound of the longest completed shift per workspace and environment (see migration 0004). */
export interface ActivityTotalsExtentTable {
  workspace_id: string;
  environment: Environment;
  longest_shift_ms: number;
}

/** The staff members a move of a workspace's activity version changed (see migration 0006). */
export interface ActivityChangeTable {
  workspace_id: string;
  version: number;
  staff_id: string;
}

/** One-time codes of console sign-in links, stored as their SHA-256 (see migration 0012). */
export interface ConsoleSignInCodeTable {
  code_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The key the gateway signs its own dashboard tokens with, when none is configured (see migration 0010). */
export interface GatewaySigningKeyTable {
  id: number;
  /** base64url of 32 random bytes. */
  secret: string;
  created_at: number;
}

/** A workspace's Discord application, written by provisioning (see migration 0016). */
export interface DiscordConnectionTable {
  workspace_id: string;
  /** The Discord application's id (1..32 digits). */
  application_id: string;
  /** Its Ed25519 public key, 64 lowercase hex characters. */
  public_key: string;
  /** The environment its commands read and write in. */
  environment: Environment;
  updated_at: number;
}

/** A workspace's Roblox group and the secrets kept for the gateway's own use (never shown). */
export interface RobloxSettingsTable {
  workspace_id: string;
  group_id: string;
  api_key: string | null;
  webhook_secret: string | null;
  updated_at: number;
}

/**
 * The Open Cloud calls taken under one API key in the last window, shared by the instances (see migration 0019):
 * `key_hash` the key's SHA-256 in hex (never the key), `calls` a JSON list of the calls' times in ms.
 */
export interface RobloxCallWindowTable {
  key_hash: string;
  calls: string;
}

/** A group role as a rank: `rank_order` is the role's rank number; `assignable` 0 for a rank the API never moves. */
export interface RankTable {
  workspace_id: string;
  name: string;
  role_id: string | null;
  rank_order: number;
  assignable: number;
}

/** A staff member's change of rank and its sync to the group (a durable job, as webhook deliveries are). */
export interface RankChangeTable {
  id: string;
  workspace_id: string;
  staff_id: string;
  from_rank: string | null;
  to_rank: string;
  from_role_id: string | null;
  to_role_id: string | null;
  reason: string | null;
  changed_by: string;
  created_at: number;
  /** pending, applied, failed or not_configured. */
  sync_status: string;
  attempts: number;
  /** JSON `{ status, code, message }` of the last failed try; null once applied. */
  last_error: string | null;
  applied_at: number | null;
  next_attempt_at: number;
  expires_at: number;
  claimed_until: number | null;
  claimed_by: string | null;
  updated_at: number;
}

/** A right-to-erasure notification handled for a workspace (never whose it was). */
export interface RobloxErasureRequestTable {
  workspace_id: string;
  notification_id: string;
  event_type: string;
  /** done, running (erasing in the background) or ignored. */
  status: string;
  /** JSON counts of what was erased. */
  counts: string | null;
  received_at: number;
  completed_at: number | null;
}

export interface Database {
  workspaces: WorkspaceTable;
  departments: DepartmentTable;
  members: MemberTable;
  staff: StaffTable;
  inactivity_notices: InactivityNoticeTable;
  applications: ApplicationTable;
  api_keys: ApiKeyTable;
  submissions: SubmissionTable;
  application_forms: ApplicationFormTable;
  erasures: ErasureTable;
  commands: CommandTable;
  events: EventTable;
  shifts: ShiftTable;
  idempotency_records: IdempotencyRecordTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  activity_totals: ActivityTotalsTable;
  activity_totals_extent: ActivityTotalsExtentTable;
  activity_changes: ActivityChangeTable;
  gateway_signing_key: GatewaySigningKeyTable;
  console_sign_in_codes: ConsoleSignInCodeTable;
  discord_connections: DiscordConnectionTable;
  roblox_settings: RobloxSettingsTable;
  ranks: RankTable;
  rank_changes: RankChangeTable;
  roblox_erasure_requests: RobloxErasureRequestTable;
  roblox_call_windows: RobloxCallWindowTable;
}

export type Db = Kysely<Database>;
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A value in a statement: bound as a parameter, or a SQL expression that yields it (a column of the rows a
 * statement acts on for many requests at once).
 */
export type SqlTerm<T> = T | RawBuilder<T>;
export type Dialect = 'sqlite' | 'postgres';
