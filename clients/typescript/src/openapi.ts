// Generated from the OpenAPI document the gateway serves (GET /openapi.json) by openapi-typescript.
// Do not edit: run `npm run client:generate`. A test fails when this file differs from the served document.
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness of the service
         * @description Answers 200 while the process runs; it touches no database, so it is a liveness check, not a readiness check. No authentication.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Service, API version, build and deployment
         * @description The API version label, the build (package version and commit) and the deployment name. No authentication.
         */
        get: operations["getVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 description
         * @description The OpenAPI 3.1 document of this API, generated from the route schemas the service validates with. No authentication. `GET /docs` shows it as an interactive reference page.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the database answers and no migration is pending
         * @description For load balancers and orchestrators: 200 while this instance can serve, 503 `not_ready` while the database does not answer (within 2 s) or a migration this build needs is not applied. Unlike `/health` (liveness), it touches the database.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Process and runtime metrics, `http_requests_total` and `http_request_duration_seconds` by method, route pattern and status, the gauges `workspace_gateway_active_shifts` (by environment), `workspace_gateway_pending_webhook_deliveries` and `workspace_gateway_oldest_pending_webhook_delivery_seconds`, and the counter `workspace_gateway_webhook_attempts_total` (this instance's delivery attempts by `result`: `delivered`, `retrying`, `failed`). When the gateway is configured with a metrics token (`METRICS_TOKEN`), it requires `Authorization: Bearer <that token>` (401 otherwise); it never accepts an API key or a dashboard token.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Integration context of the calling API key
         * @description Application, workspace, environment, scopes, feature flags and chat binding of the calling key. Any valid key may call it; the activity feature must be enabled. The workspace comes from the key; an `X-Chat-Guild-Id` header, when sent, must match the connected guild (403 `guild_mismatch`, or `chat_not_connected` when no guild is connected).
         */
        get: operations["getIntegration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Staff profile of the invoking chat user
         * @description Resolves `X-Acting-Chat-User-Id` to a staff profile of the API key's workspace. Scope `staff:read`. Both chat headers are required (400); the guild must be the connected one (403 `guild_mismatch` / `chat_not_connected`); a chat user with no staff profile is 404. Inactive staff still get their profile.
         */
        get: operations["getStaffMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/me/inactivity-notices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the acting staff member's inactivity notices
         * @description The staff member is the acting chat user, identified as on `GET /v1/staff/me`: both chat headers are required (400), the guild must be the connected one (403 `guild_mismatch` / `chat_not_connected`), and a chat user with no staff profile is 404. Not gated by a feature. Scope `staff:read`. The notices of the key's environment, by `startsAt` descending then `id` descending, at most the 20 first.
         */
        get: operations["listMyInactivityNotices"];
        put?: never;
        /**
         * Ask for an inactivity notice (time off) as the acting staff member
         * @description The staff member is the acting chat user, identified as on `GET /v1/staff/me`: both chat headers are required (400), the guild must be the connected one (403 `guild_mismatch` / `chat_not_connected`), and a chat user with no staff profile is 404. Not gated by a feature. Scope `staff:write`. `Content-Type: application/json` is required (415). Records a `pending` notice in the key's environment. 400 `validation_failed`, `details.issues` naming `startsAt`, `endsAt` or `reason` (a rule on both dates names `endsAt`): `reason` empty or over 500 characters after trimming; `startsAt` more than 7 days before now; `endsAt` not after `startsAt` or not after now; longer than the workspace's `maxNoticeDays` × 24 h. Inactive staff: 403 `staff_inactive`. A `pending` or `approved` notice of the staff member in this environment overlapping it: 409 `notice_overlap` with `details.noticeId` (the one that starts first; also the answer to the loser of two racing requests). Checks in order: authentication, scope, chat headers, body and `Idempotency-Key`, replay, the guild, the body's rules, the staff member, `staff_inactive`, overlap. Takes an `Idempotency-Key` (required), scoped to the caller: a replay returns the stored result with `Idempotent-Replayed: true`. The change, one command and one event are recorded in one transaction; the event is delivered to webhooks with this response's `data`, in the notice's environment.
         */
        post: operations["requestInactivityNotice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/me/inactivity-notices/{noticeId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an inactivity notice, or come back early from one
         * @description The staff member is the acting chat user, identified as on `GET /v1/staff/me`: both chat headers are required (400), the guild must be the connected one (403 `guild_mismatch` / `chat_not_connected`), and a chat user with no staff profile is 404. Not gated by a feature. Scope `staff:write`; no body, or `{}`. Another staff member's notice, or one of another environment or workspace, is 404. A `pending` notice, or an `approved` one that has not started, becomes `cancelled`. An `approved` notice under way stays `approved` and ends now: the staff member is back early, and the part taken still counts. An ended approved notice, a `denied` or a `cancelled` one: 409 `notice_finalized`. The event is `staff.inactivity_notice.cancelled` in both cases. Takes an `Idempotency-Key` (required), scoped to the caller: a replay returns the stored result with `Idempotent-Replayed: true`. The change, one command and one event are recorded in one transaction; the event is delivered to webhooks with this response's `data`, in the notice's environment.
         */
        post: operations["cancelInactivityNotice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/inactivity-notices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inactivity notices for managers
         * @description Dashboard user token only; needs `notices.decide` (403 `permission_denied`). With `X-Service-Workspace-Id`, only that workspace is visible (the caller must be a member of it, else 403 `workspace_access_denied`). Notices in the given statuses (default `pending`) and environment (default `live`), optionally of one staff member, ordered by `startsAt` then `id`, both ascending; each with its staff member and `decidedBy`. Keyset pagination: pass `nextCursor` back as `cursorStartsAt` and `cursorId` (both or neither, else 400). A malformed `status`, `staffId`, `environment`, `limit` or cursor is 400 `validation_failed`; a `staffId` that names no staff member gives an empty page.
         */
        get: operations["listInactivityNotices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/inactivity-notices/{noticeId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a pending inactivity notice
         * @description Dashboard user token only; needs `notices.decide` (403 `permission_denied`). With `X-Service-Workspace-Id`, only that workspace is visible (the caller must be a member of it, else 403 `workspace_access_denied`). A notice of a workspace the caller is not a member of (or not the selected one), an unknown one, or a `noticeId` that is not a uuid is 404 `not_found`. From `pending` only, else 409 `invalid_state_transition` (also the answer to the loser of an approval racing a denial). `note`: 1 to 1000 characters after trimming, recorded as the notice's `decisionNote`. Approving while another `approved` notice of the staff member in that environment overlaps it: 409 `notice_overlap` (`details.noticeId`). Takes an `Idempotency-Key` (required), scoped to the caller: a replay returns the stored result with `Idempotent-Replayed: true`. The change, one command and one event are recorded in one transaction; the event is delivered to webhooks with this response's `data`, in the notice's environment.
         */
        post: operations["approveInactivityNotice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/inactivity-notices/{noticeId}/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deny a pending inactivity notice
         * @description Dashboard user token only; needs `notices.decide` (403 `permission_denied`). With `X-Service-Workspace-Id`, only that workspace is visible (the caller must be a member of it, else 403 `workspace_access_denied`). A notice of a workspace the caller is not a member of (or not the selected one), an unknown one, or a `noticeId` that is not a uuid is 404 `not_found`. From `pending` only, else 409 `invalid_state_transition` (also the answer to the loser of an approval racing a denial). `note`: 1 to 1000 characters after trimming, recorded as the notice's `decisionNote`. Takes an `Idempotency-Key` (required), scoped to the caller: a replay returns the stored result with `Idempotent-Replayed: true`. The change, one command and one event are recorded in one transaction; the event is delivered to webhooks with this response's `data`, in the notice's environment.
         */
        post: operations["denyInactivityNotice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/{staffId}/rank": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change a staff member's rank (and their role in the Roblox group)
         * @description Dashboard user token only. With `X-Service-Workspace-Id`, only that workspace is visible (the caller must be a member of it, else 403 `workspace_access_denied`). A staff member of a workspace the caller is not a member of (or not the selected one), an unknown one, or a `staffId` that is not a uuid is 404 `not_found`. Needs `staff.rank` (403 `permission_denied`). `Content-Type: application/json` is required (415). When the workspace has ranks, `rank` must be one of their names (400 `validation_failed` naming `body.rank`); without ranks any name of 1 to 60 characters is a rank. `reason`: 1 to 500 characters after trimming, stored trimmed. Giving or taking a rank that is not assignable: 403 `rank_not_assignable`; the current rank: 409 `rank_unchanged` (`rank_not_assignable` wins when both apply). Otherwise the rank changes and the change is recorded, with one command and the event `staff.rank.changed` (its `data` this response's `data`, environment `live`), in one transaction. The change then reaches the Roblox group after the commit: `change.sync.status` is `pending` until Open Cloud has applied it (`applied`) or refused it (`failed`, and the event `staff.rank.sync_failed`), or `not_configured` when the workspace has no group id or API key, or neither rank has a role id. Takes an `Idempotency-Key` (required), scoped to the caller: a replay returns the stored result with `Idempotent-Replayed: true`.
         */
        post: operations["changeStaffRank"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/{staffId}/rank-changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a staff member's rank changes
         * @description Dashboard user token only. With `X-Service-Workspace-Id`, only that workspace is visible (the caller must be a member of it, else 403 `workspace_access_denied`). A staff member of a workspace the caller is not a member of (or not the selected one), an unknown one, or a `staffId` that is not a uuid is 404 `not_found`. Any member of the staff member's workspace. The changes newest first, at most 50, each with its sync to the Roblox group as it stands.
         */
        get: operations["listStaffRankChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/roblox/workspaces/{workspaceId}/erasure-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take Roblox's right-to-erasure webhook
         * @description Configured as the experience's webhook in the Roblox Creator Dashboard (docs/ROBLOX.md). No credential: the header `roblox-signature: t=<unix seconds>,v1=<base64>` must carry HMAC-SHA256 with the workspace's `webhookSecret` over `<t>.` and the raw body, with `t` within 10 minutes of now; anything else is 401 (also for a workspace without a `webhookSecret`, or an unknown one). The body is Roblox's notification `{ NotificationId, EventType, EventTime, EventPayload: { UserId, GameIds } }`; a signed body that is not such JSON is 400. `RightToErasureRequest` erases the user's data in this workspace exactly as the `erase --game-user-id` command does; other types are acknowledged and ignored; a `NotificationId` seen before is acknowledged and erases nothing more. Answered within 5 s: an erasure still running after 4 s finishes in the background. Each handled notification is recorded (id, time, counts; never the user id).
         */
        post: operations["takeRobloxErasureRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/me/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Activity summary of the invoking chat user
         * @description Completed minutes today, this week, last week and this month for the staff member behind `X-Acting-Chat-User-Id`, with this week's requirement and progress. Both chat headers are required (400); the guild must be the workspace's connected one (403 `guild_mismatch`, or `chat_not_connected`); a chat user with no staff profile is 404. Inactive staff get their summary too. `weeklyRequiredMinutes` is the weekly requirement (staff override, else department, else workspace setting, else 0) less what approved inactivity notices overlapping the week waive: requirement × overlap / week length, floored, with overlapping notices counted once. `inactivityEffect` names the approved notice overlapping the week most (then the earliest) and carries the waiver of all of them; pending and denied notices are ignored. `progressPercent` = `currentWeekMinutes` / `weeklyRequiredMinutes` × 100 (two decimals, half up, not capped; 100 when the requirement is 0). `activeShift` is the staff member's live active shift in this environment (the most recently started if several applications have one), else null. Scope `activity:read`, feature `activity`. Only the calling key's workspace and environment are seen (test keys see test shifts only). Periods are half-open `[start, end)` in the workspace time zone (UTC by default). A completed shift counts when it overlaps the period (a zero-length one when it starts inside it) and its time is clipped to the period; an active shift that timed out (nothing received for more than SHIFT_TIMEOUT_SECONDS) counts as the completed shift it is, ending at its `lastHeartbeatAt`. Live active shifts are reported, never added to the totals. Seconds are the floor of the summed clipped milliseconds; minutes the floor of those seconds / 60.
         */
        get: operations["getActivitySummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/staff/{gameUserId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Activity aggregates of one staff member
         * @description Totals of the staff member of the key's workspace with this `gameUserId` (any status) over the period; a game user id with no staff member there is 404. `period` is `week` (default; also for any unrecognized value) or `month`; `start` and `end` together give a custom range and override `period`. One without the other, a malformed date-time, `end` not after `start`, or a range over 366 × 24 hours is 400. The period is validated before the staff member is looked up. `activeShift` is the live active shift in this environment, else null. Answers with `data` only (no `meta`). Scope `activity:read`, feature `activity`. Only the calling key's workspace and environment are seen (test keys see test shifts only). Periods are half-open `[start, end)` in the workspace time zone (UTC by default). A completed shift counts when it overlaps the period (a zero-length one when it starts inside it) and its time is clipped to the period; an active shift that timed out (nothing received for more than SHIFT_TIMEOUT_SECONDS) counts as the completed shift it is, ending at its `lastHeartbeatAt`. Live active shifts are reported, never added to the totals. Seconds are the floor of the summed clipped milliseconds; minutes the floor of those seconds / 60.
         */
        get: operations["getStaffActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/leaderboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Staff ranked by activity
         * @description Every staff member of the key's workspace with status `active` (plus `inactive` with `includeInactive=true` or `1`), zero totals included, ordered by `totalSeconds` descending then `staffId` ascending. `position` is absolute (1-based) and continues on later pages; with `departmentId` only that department is listed and positions count within it (a well-formed id of no department of this workspace gives an empty page). Pages: pass `nextCursor` back as `cursorTotalSeconds` and `cursorStaffId` (both or neither, else 400); `nextCursor` is null on the last page. A cursor is a place in the order, so entries are neither repeated nor skipped while totals stay unchanged. `limit` is an integer from 1 to 100 (default 25), else 400. `progressPercent` compares the period minutes with the staff member's requirement for the period (weekly × calendar days / 7 for a week or month, weekly × range / 7 days for a custom range) less what approved notices waive (pro rata to their overlap with the period, floored). Rankings are computed once and reused until a stop, a new staff profile, provisioning (on any gateway instance) or a shift timing out changes them, so every page is exactly what a fresh computation would give. `period` is `week` (default; also for any unrecognized value) or `month`; `start` and `end` together give a custom range and override `period`. One without the other, a malformed date-time, `end` not after `start`, or a range over 366 × 24 hours is 400. Scope `activity:read`, feature `activity`. Only the calling key's workspace and environment are seen (test keys see test shifts only). Periods are half-open `[start, end)` in the workspace time zone (UTC by default). A completed shift counts when it overlaps the period (a zero-length one when it starts inside it) and its time is clipped to the period; an active shift that timed out (nothing received for more than SHIFT_TIMEOUT_SECONDS) counts as the completed shift it is, ending at its `lastHeartbeatAt`. Live active shifts are reported, never added to the totals. Seconds are the floor of the summed clipped milliseconds; minutes the floor of those seconds / 60. A dashboard token of any member of the workspace is accepted too (not gated by an application's features; a caller who is a member of no workspace is 403 `workspace_access_denied`): it reads the workspace named by `X-Service-Workspace-Id` (required when the caller is a member of several, 400), in the environment of the `environment` query parameter (`live` by default).
         */
        get: operations["getActivityLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The roster: staff with their week and the shift under way
         * @description Dashboard token of any member of the workspace (no permission needed; not gated by an application's features). The workspace is the one named by `X-Service-Workspace-Id` (the caller must be a member of it, else 403 `workspace_access_denied`), else the caller's only workspace: a caller who is a member of no workspace is 403 `workspace_access_denied`, one who is a member of several and names none is 400. `environment` (`live` by default, or `test`) chooses whose activity is read. Staff of the workspace with `status` (`active` by default, `inactive`, or `all`), optionally only a department's (`departmentId`) or a rank's (`rank`, exact), ordered by `displayName` then `id`, both compared by Unicode code points (ids as lowercase text). Pages: pass `nextCursor` back as `cursorDisplayName` and `cursorId` (both or neither, else 400); a cursor is a place in that order, so staff are neither repeated nor skipped. `limit` is an integer from 1 to 100 (default 50), else 400; an unknown `status`, a malformed `departmentId`, `cursorId` or `environment` is 400. Each item carries its current `week` and its `activeShift` (the shift under way in the environment, else null). A week's figures are exactly the leaderboard's entry and the activity summary's for the same staff member: completed time (and timed-out shifts, ending at their last heartbeat) clipped to the week in the workspace time zone, in whole minutes; the requirement (staff override, else department, else workspace, else 0) less what the approved notices of the environment waive; the progress rounded half up to two decimals, 100 when nothing is required.
         */
        get: operations["listStaff"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/staff/{staffId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A staff member's page: week, month, the last 8 weeks, recent shifts, time off, rank changes
         * @description Dashboard token of any member of the workspace (no permission needed; not gated by an application's features). The workspace is the one named by `X-Service-Workspace-Id` (the caller must be a member of it, else 403 `workspace_access_denied`), else the caller's only workspace: a caller who is a member of no workspace is 403 `workspace_access_denied`, one who is a member of several and names none is 400. `environment` (`live` by default, or `test`) chooses whose activity is read. Any staff member of the workspace, inactive ones too; one of another workspace, or an unknown one, is 404. `staff` is the roster's item; `week` and `month` the per-staff aggregates of the current week (with `requiredMinutes` and `progressPercent`) and month; `weeks` the last 8 weeks, oldest first, the current one last, each with its own requirement; `recentShifts` the last 20 completed shifts and `notices` the last 10 inactivity notices (never their reason or decision note), both of the environment, newest first; `rankChanges` the last 10 rank changes, newest first (empty when there are none). A week's figures are exactly the leaderboard's entry and the activity summary's for the same staff member: completed time (and timed-out shifts, ending at their last heartbeat) clipped to the week in the workspace time zone, in whole minutes; the requirement (staff override, else department, else workspace, else 0) less what the approved notices of the environment waive; the progress rounded half up to two decimals, 100 when nothing is required.
         */
        get: operations["getStaffMember"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/shifts/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a shift (or get the active one)
         * @description Starts a shift for the staff member of the key's workspace with this `gameUserId`. Scope `activity:write`, feature `activity`. `Content-Type: application/json` is required (415). Numeric ids are stored as decimal strings. The universe must be in the application's allowed list (an empty list denies all: 403 `universe_not_allowed`); unknown staff is 404, inactive staff 403 `staff_inactive`. When the application already has an active shift for the staff member in this environment, it is returned unchanged with `existing: true` (not a heartbeat); one that has timed out is completed (`heartbeat_timeout`, ending at its `lastHeartbeatAt`) and a new one starts. Concurrent starts yield one active shift. Takes an `Idempotency-Key` (required), scoped to the application and environment: a replay returns the stored result with `Idempotent-Replayed: true`.
         */
        post: operations["startShift"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/shifts/{shiftId}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a heartbeat of an active shift
         * @description Keeps the shift alive and moves `lastHeartbeatAt` to `recordedAt` (it never moves backwards). Scope `activity:write`, feature `activity`. The body is optional; when sent it must be application/json (415). A `serverId` differing from the shift's is 409 `server_mismatch`. The shift must belong to the calling key's application and environment (else 404, as for an unknown id). A completed shift, or an active one nothing was received for in more than SHIFT_TIMEOUT_SECONDS (which is then completed with `endReason` `heartbeat_timeout`), is 409 `shift_not_active`. Takes an `Idempotency-Key` (required), scoped to the application and environment: a replay returns the stored result with `Idempotent-Replayed: true`.
         */
        post: operations["recordShiftHeartbeat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/shifts/{shiftId}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop an active shift
         * @description Completes the shift at `endedAt` and reports its duration in whole seconds and whole minutes (both rounded down). Scope `activity:write`, feature `activity`. The body is optional; when sent it must be application/json (415). The shift must belong to the calling key's application and environment (else 404, as for an unknown id). A completed shift, or an active one nothing was received for in more than SHIFT_TIMEOUT_SECONDS (which is then completed with `endReason` `heartbeat_timeout`), is 409 `shift_not_active`. Takes an `Idempotency-Key` (required), scoped to the application and environment: a replay returns the stored result with `Idempotent-Replayed: true`.
         */
        post: operations["stopShift"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/shifts/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List active shifts
         * @description Active shifts of the key's workspace (every application) in the key's environment, ordered by `startedAt` then `id`, both ascending; shifts that have timed out are left out. Scope `activity:read`, feature `activity`. Keyset pagination: pass `nextCursor` back as `cursorStartedAt` and `cursorId` (both or neither, else 400). A dashboard token of any member of the workspace is accepted too (not gated by an application's features; a caller who is a member of no workspace is 403 `workspace_access_denied`): it reads the workspace named by `X-Service-Workspace-Id` (required when the caller is a member of several, 400), in the environment of the `environment` query parameter (`live` by default).
         */
        get: operations["listActiveShifts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/shifts/{shiftId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one shift
         * @description A shift of the key's workspace in the key's environment (else 404), e.g. for a game server recovering after a restart. Scope `activity:read`, feature `activity`. The timeout rule is applied first. While active it carries `elapsedSeconds`; once completed `endedAt`, `durationSeconds`, `minutes` and `endReason` instead.
         */
        get: operations["getShift"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/shifts/heartbeats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record one heartbeat for many shifts of a game server
         * @description Applies to each listed shift (1 to 200) exactly what the single heartbeat applies, in one transaction, and answers with a result per shift in request order: the shift, or an error (`not_found`, `shift_not_active` — a shift that has timed out is completed then, `server_mismatch`, `validation_failed` for a `recordedAt` before that shift's `startedAt`). One failing shift changes nothing for the others. The whole request is refused (nothing written) for a malformed body, an empty, oversized or duplicated `shiftIds` (two spellings of one uuid count as one), or a `recordedAt` over 60 s ahead (400); `Content-Type: application/json` is required (415). Scope `activity:write`, feature `activity`. Acts only on shifts of the calling key's application and environment (any other id is `not_found`). Takes an `Idempotency-Key` (required), scoped to the application and environment: a replay returns the stored result with `Idempotent-Replayed: true`. One request and one commit for the whole server, so a game server spends one request per interval, not one per player.
         */
        post: operations["recordShiftHeartbeats"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/servers/{serverId}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop every active shift of a game server
         * @description For a game server shutting down: stops every active shift of that server as the single stop would (`reason` defaults to `server_shutdown`), at `endedAt` (default: the server clock); a shift started after `endedAt` ends at its own `startedAt`. A shift that had already timed out is completed as `heartbeat_timeout` and not listed. Answers with the stopped shifts by `startedAt` then `id`, an empty list when none was active. The body is optional; when sent it must be application/json (415). `endedAt` over 60 s ahead is 400. Scope `activity:write`, feature `activity`. Acts only on shifts of the calling key's application and environment (any other id is `not_found`). Takes an `Idempotency-Key` (required), scoped to the application and environment: a replay returns the stored result with `Idempotent-Replayed: true`. One request and one commit for the whole server, so a game server spends one request per interval, not one per player.
         */
        post: operations["stopServerShifts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/submissions/{submissionId}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an application submission
         * @description Moves a `submitted` or `under_review` submission to `accepted`. Requires `applications.decide`. A staff profile for the applicant is created (or, when the workspace already has one for the applicant's game user, linked: `staffProfileCreated: false` with its id) when `createStaffProfile` says so and the caller has `staff.create`; without `staff.create` (or without the field) the workspace setting `createStaffProfileOnAccept` decides. Without a profile, `staffProfileId` is null. Dashboard user token only. The submission must be in a workspace the caller is a member of (and in the workspace named by `X-Service-Workspace-Id`, when sent); otherwise, or when `submissionId` is not a uuid, 404 `not_found`. Accepted and rejected submissions are final: any operation on them is 422 `submission_finalized` (an idempotent replay of the original result is not an operation). The change, one command and one event are recorded in one transaction; concurrent operations on one submission, on any instance, have exactly one winner, and the others get the 409/422 the final state implies. `reviewNote` is recorded in the command and event payloads; it does not change the submission's `reviewerNotes`.
         */
        post: operations["acceptSubmission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/submissions/{submissionId}/mark-under-review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark an application submission as under review
         * @description Moves a `submitted` submission to `under_review` and sets `reviewedAt`. Requires `applications.review`. From `under_review`: 409 `invalid_state_transition`. Dashboard user token only. The submission must be in a workspace the caller is a member of (and in the workspace named by `X-Service-Workspace-Id`, when sent); otherwise, or when `submissionId` is not a uuid, 404 `not_found`. Accepted and rejected submissions are final: any operation on them is 422 `submission_finalized` (an idempotent replay of the original result is not an operation). The change, one command and one event are recorded in one transaction; concurrent operations on one submission, on any instance, have exactly one winner, and the others get the 409/422 the final state implies. `reviewNote` is recorded in the command and event payloads; it does not change the submission's `reviewerNotes`.
         */
        post: operations["markSubmissionUnderReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/submissions/{submissionId}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject an application submission
         * @description Moves a `submitted` or `under_review` submission to `rejected`. Requires `applications.decide`. Dashboard user token only. The submission must be in a workspace the caller is a member of (and in the workspace named by `X-Service-Workspace-Id`, when sent); otherwise, or when `submissionId` is not a uuid, 404 `not_found`. Accepted and rejected submissions are final: any operation on them is 422 `submission_finalized` (an idempotent replay of the original result is not an operation). The change, one command and one event are recorded in one transaction; concurrent operations on one submission, on any instance, have exactly one winner, and the others get the 409/422 the final state implies. `reviewNote` is recorded in the command and event payloads; it does not change the submission's `reviewerNotes`.
         */
        post: operations["rejectSubmission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/submissions/{submissionId}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update the reviewer score and notes of a submission
         * @description Updates `score` and/or `reviewerNotes` of a `submitted` or `under_review` submission without changing its status, and sets `reviewedAt` to now. Requires `applications.review`. Omitted fields are left unchanged; null clears a field, and so does an empty `reviewerNotes`. `scoreUpdated` / `reviewerNotesUpdated` are true when the patch carried that field. 400 for malformed JSON, an empty body or `{}`, unknown properties, a score that is not a number or null or is outside 0..100, and notes over 5000 characters. Dashboard user token only. The submission must be in a workspace the caller is a member of (and in the workspace named by `X-Service-Workspace-Id`, when sent); otherwise, or when `submissionId` is not a uuid, 404 `not_found`. Accepted and rejected submissions are final: any operation on them is 422 `submission_finalized` (an idempotent replay of the original result is not an operation). The change, one command and one event are recorded in one transaction; concurrent operations on one submission, on any instance, have exactly one winner, and the others get the 409/422 the final state implies.
         */
        patch: operations["updateSubmissionReview"];
        trace?: never;
    };
    "/v1/applications/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the reviewers' queue of application submissions
         * @description Submissions in the given statuses (default `submitted,under_review`) and environment (default `live`), optionally of one form, ordered by `createdAt` then `id`, both ascending (oldest first). Keyset pagination: pass `nextCursor` back as `cursorCreatedAt` and `cursorId` (both or neither, else 400). A malformed `status`, `formId`, `environment`, `limit` or cursor is 400 `validation_failed`; a `formId` that names no form of the workspace gives an empty page. Dashboard user token only. Needs `applications.review` or `applications.decide` (403 `permission_denied`). With `X-Service-Workspace-Id`, only that workspace is read (the caller must hold one of the two permissions there); without it, every workspace where the caller holds one of them.
         */
        get: operations["listSubmissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/submissions/{submissionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one application submission with its answers and history
         * @description The queue's item plus `reviewerNotes`, `staffProfileId`, the answers as they were given and the history: one entry per recorded command (submit, mark under review, review update, accept, reject), oldest first. A submission of a workspace the caller is not a member of (or not the selected one), an unknown one, or a `submissionId` that is not a uuid is 404 `not_found`; a member without either permission gets 403 `permission_denied`. Dashboard user token only. Needs `applications.review` or `applications.decide` (403 `permission_denied`). With `X-Service-Workspace-Id`, only that workspace is read (the caller must hold one of the two permissions there); without it, every workspace where the caller holds one of them.
         */
        get: operations["getSubmission"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Count application submissions by form and status
         * @description One row per form of the workspace, zeros included, ordered by form name then id (compared character by character, capitals before lower case, not by a language's collation), then (only when there are any) one row with `formId` and `formName` null for submissions without a form; counts are of the given `environment` (default `live`). Dashboard user token only. Needs `applications.review` or `applications.decide` (403 `permission_denied`). With `X-Service-Workspace-Id`, only that workspace is read (the caller must hold one of the two permissions there); without it, every workspace where the caller holds one of them.
         */
        get: operations["getApplicationStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the application forms of the key's workspace
         * @description Every form of the key's workspace, open and closed, ordered by `name` (character order, case-sensitive) then `id`, each with its questions in order and every default filled in (`required` false; `maxLength` 200 for `short_text` and 5000 for `long_text`); fields that do not apply, or were not given, are null. Scope `applications:read`, feature `applications`.
         */
        get: operations["listApplicationForms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/forms/{formId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one application form
         * @description A form of the key's workspace, as the list shows it. Scope `applications:read`, feature `applications`. Another workspace's form, an unknown id or one that is not a uuid: 404.
         */
        get: operations["getApplicationForm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/forms/{formId}/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit an application to a form
         * @description Records a `submitted` submission to a form of the key's workspace, in the key's environment (a test key never fills the live queue). Scope `applications:write`, feature `applications`. `Content-Type: application/json` is required (415). `applicant.gameUserId` may be a string of 1 to 32 digits or a number (stored as its decimal string); applicant fields left out are null. Order of checks: the form (404 for an unknown id, one that is not a uuid, or another workspace's form); the answers, every problem at once in `details.issues` as `{ questionId, code, message }` (400 `validation_failed`; codes `required`, `unknown_question`, `wrong_type`, `too_long`, `below_min`, `above_max`, `not_an_option`, `duplicate_option`; text is trimmed, an empty text is no answer, lengths count characters, a required boolean answered `false` is answered); a closed form (409 `form_closed`); a submission of this applicant to this form still `submitted` or `under_review` in this environment (409 `submission_pending`, `details.submissionId`: also the answer to the loser of two racing submissions); a rejection less than the form's `cooldownDays` ago (409 `application_cooldown`, `details.retryAfter`: the rejection plus `cooldownDays` × 24 h). The submission, a command and the event `application.submission.submitted` (delivered to webhooks with this response's `data`, in the key's environment) are recorded in one transaction. Takes an `Idempotency-Key` (required), scoped to the application and environment: a replay returns the stored result with `Idempotent-Replayed: true`.
         */
        post: operations["submitApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/applicants/{gameUserId}/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What an applicant may be told about their submissions
         * @description The last 20 submissions of the applicant with this game user id in the key's workspace and environment, newest first: status and dates only (never a score, reviewer notes or review notes). An applicant with none gets an empty list. Scope `applications:read`, feature `applications`.
         */
        get: operations["listApplicantSubmissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/console/sign-in-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a one-time console sign-in link for the acting chat user
         * @description Scope `console:link`. The acting chat user is identified as on `GET /v1/staff/me`: both chat headers are required (400), the guild must be the connected one (403 `guild_mismatch` / `chat_not_connected`). The member of the key's workspace whose `chatUserId` (provisioning) is the acting chat user gets the link; none is 404 `not_found`. No body, or `{}`. No `Idempotency-Key`: every call makes a new link (a retry makes another; each works on its own). The link signs the member in once, within 10 minutes; its code is stored only as a SHA-256 hash. A chat bot sends it to the member privately (an ephemeral message or a direct message), never to a channel.
         */
        post: operations["createConsoleSignInLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/console/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a sign-in link's code for a dashboard token
         * @description No credential: the code is the credential. A code is usable once, within 10 minutes of its link: an unknown, used or expired code is 401 `unauthenticated`, the same answer for all three, and of two exchanges of one code at once exactly one gets a token. The token is a dashboard token signed by the gateway (`sub` = the member's `userId`, valid 8 hours) that every dashboard operation accepts like an identity provider's. Failed exchanges are counted per client address: after 10 in a 60-second window (fixed on the clock), every exchange from that address is 429 `rate_limited` with `Retry-After` until the window ends, a valid code included. Not subject to the per-credential rate limit.
         */
        post: operations["createConsoleSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/console/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in member and their workspaces
         * @description Dashboard token, the gateway's own (a console sign-in, `tokens create`) or the identity provider's. The caller's `userId` and the workspaces they are a member of, each with their permissions there and its ranks (name, order, whether assignable), ordered by name then id (empty when none), so a page offers only what the member may do. `X-Service-Workspace-Id` is not needed (when sent, it must name one of them: 403 `workspace_access_denied`).
         */
        get: operations["getConsoleMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/discord/applications/{applicationId}/interactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Discord interactions: slash commands and buttons, without a bot to host
         * @description The Interactions Endpoint URL to paste into a Discord application (docs/DISCORD.md). No API key or token: `X-Signature-Ed25519` must be the application's Ed25519 signature (its `publicKey` in the provisioning document) over `X-Signature-Timestamp` + the raw body, checked before anything else; a missing or wrong signature, an unknown application, or a timestamp more than 5 minutes from now is 401 `unauthenticated`. Answers are Discord interaction responses, not this API's envelope: a PING (`type: 1`) gets `{ "type": 1 }`, a command `{ "type": 4, "data": { … } }`, a button press `{ "type": 7, "data": { … } }` (the message updated). Every message sets `allowed_mentions: { "parse": [] }`. The interaction's `guild_id` picks the workspace (`chat.guildId`) among those of the application, `member.user.id` the staff member or member (`chatUserId`). A refusal is an ephemeral sentence (`flags: 64`), with status 200. A write (`/loa request`, `/loa cancel`, a button) is idempotent on the interaction's `id`, and recorded with its command and event as the API's, in the workspace's Discord environment.
         */
        post: operations["handleDiscordInteraction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "application.submission.submitted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A submission was taken in
         * @description Sent after `submitApplication` succeeds; `data` is its answer's `data`, `environment` the key's. Subscribed to as `application.submission.submitted` (or `*`).
         */
        post: operations["applicationSubmissionSubmittedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "application.submission.under_review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A submission was marked under review
         * @description Sent after `markSubmissionUnderReview`; `data` is its answer's `data`, `environment` the submission's. Subscribed to as `application.submission.under_review` (or `*`).
         */
        post: operations["applicationSubmissionUnderReviewEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "application.submission.review_updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A submission's score or reviewer notes changed
         * @description Sent after `updateSubmissionReview`; `data` is its answer's `data`, `environment` the submission's. Subscribed to as `application.submission.review_updated` (or `*`).
         */
        post: operations["applicationSubmissionReviewUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "application.submission.accepted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A submission was accepted
         * @description Sent after `acceptSubmission`; `data` is its answer's `data`, `environment` the submission's. Subscribed to as `application.submission.accepted` (or `*`).
         */
        post: operations["applicationSubmissionAcceptedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "application.submission.rejected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A submission was rejected
         * @description Sent after `rejectSubmission`; `data` is its answer's `data`, `environment` the submission's. Subscribed to as `application.submission.rejected` (or `*`).
         */
        post: operations["applicationSubmissionRejectedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "activity.shift.started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A shift started
         * @description Sent when a start creates a shift (a start answered with `existing: true` sends none). Subscribed to as `activity.shift.started` (or `*`).
         */
        post: operations["activityShiftStartedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "activity.shift.ended": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A shift ended
         * @description Sent when a shift is completed: by a stop, a game server's batch stop or the heartbeat timeout (`data.shift.endReason` tells which). Subscribed to as `activity.shift.ended` (or `*`).
         */
        post: operations["activityShiftEndedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "staff.inactivity_notice.requested": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A staff member asked for an inactivity notice
         * @description Sent after `requestInactivityNotice`; `data` is its answer's `data`, `environment` the notice's (the key's). Subscribed to as `staff.inactivity_notice.requested` (or `*`).
         */
        post: operations["staffInactivityNoticeRequestedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "staff.inactivity_notice.approved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An inactivity notice was approved
         * @description Sent after `approveInactivityNotice`; `data` is its answer's `data`, `environment` the notice's. Subscribed to as `staff.inactivity_notice.approved` (or `*`).
         */
        post: operations["staffInactivityNoticeApprovedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "staff.inactivity_notice.denied": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An inactivity notice was denied
         * @description Sent after `denyInactivityNotice`; `data` is its answer's `data`, `environment` the notice's. Subscribed to as `staff.inactivity_notice.denied` (or `*`).
         */
        post: operations["staffInactivityNoticeDeniedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "staff.inactivity_notice.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An inactivity notice was cancelled, or its staff member came back early
         * @description Sent after `cancelInactivityNotice`: `data.notice.status` is `cancelled`, or `approved` with `endsAt` moved to the cancellation (back early); `data` is its answer's `data`, `environment` the notice's. Subscribed to as `staff.inactivity_notice.cancelled` (or `*`).
         */
        post: operations["staffInactivityNoticeCancelledEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "staff.rank.changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A staff member's rank changed
         * @description Sent after `changeStaffRank`, and when an acceptance gives the staff profile it creates its form's entry rank (`fromRank` null); `data` is the change's answer's `data`, `environment` `live`. The change's sync to the Roblox group is then under way (`sync.status` `pending`) or `not_configured`. Subscribed to as `staff.rank.changed` (or `*`).
         */
        post: operations["staffRankChangedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "staff.rank.sync_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roblox refused a rank change, or its sync gave up
         * @description Sent when a rank change's sync ends `failed`: Open Cloud refused it (400, 401, 403, or 404 on assigning the role; `sync.lastError` has Roblox's `code` and `message`), it kept failing for 24 h, or the staff member was erased (`code` `erased`). `data` is `{ staff, change }`, `environment` `live`. Subscribed to as `staff.rank.sync_failed` (or `*`).
         */
        post: operations["staffRankSyncFailedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * ErrorResponse
         * @description Body of every 4xx and 5xx response.
         */
        ErrorResponse: {
            error: {
                /**
                 * @description Stable machine-readable error code.
                 * @enum {string}
                 */
                code: "validation_failed" | "invalid_json" | "idempotency_key_required" | "invalid_idempotency_key" | "unauthenticated" | "insufficient_scope" | "permission_denied" | "workspace_access_denied" | "feature_disabled" | "universe_not_allowed" | "guild_mismatch" | "chat_not_connected" | "application_not_approved" | "staff_inactive" | "not_found" | "method_not_allowed" | "invalid_state_transition" | "shift_not_active" | "server_mismatch" | "form_closed" | "submission_pending" | "application_cooldown" | "notice_overlap" | "notice_finalized" | "rank_not_assignable" | "rank_unchanged" | "idempotency_request_in_progress" | "payload_too_large" | "unsupported_media_type" | "submission_finalized" | "idempotency_key_reused" | "rate_limited" | "internal_error" | "bad_request" | "request_timeout" | "expectation_failed" | "headers_too_large" | "not_ready" | "service_unavailable";
                /** @description Human-readable explanation; wording may change. */
                message: string;
                /** @description Equals the X-Request-Id header. */
                requestId: string;
                /** @description Extra context; which fields appear depends on `code`. */
                details?: {
                    /** @description `validation_failed`: one entry per problem found (every answer problem at once). */
                    issues?: ({
                        /**
                         * @description Where: the request part (`body`, `querystring`, `params`, `headers`) and the property, dot-separated.
                         * @example body.serverId
                         */
                        path: string;
                        /**
                         * @description What is wrong with it.
                         * @example must NOT have more than 128 characters
                         */
                        message: string;
                    } | {
                        /**
                         * @description The question the problem concerns (or the unknown answer key).
                         * @example age
                         */
                        questionId: string;
                        /**
                         * @description Stable code of the problem.
                         * @enum {string}
                         */
                        code: "required" | "unknown_question" | "wrong_type" | "too_long" | "below_min" | "above_max" | "not_an_option" | "duplicate_option";
                        /**
                         * @description What is wrong with it.
                         * @example must be at least 13
                         */
                        message: string;
                    })[];
                    /** @description `insufficient_scope`: the scope the route needs. */
                    requiredScope?: string;
                    /** @description `permission_denied`: the workspace permission the operation needs. */
                    requiredPermission?: string;
                    /** @description `submission_finalized`, `notice_finalized`, `invalid_state_transition`: the submission's or notice's status. */
                    status?: string;
                    /**
                     * Format: uuid
                     * @description `submission_pending`: the applicant's submission awaiting review.
                     */
                    submissionId?: string;
                    /**
                     * Format: uuid
                     * @description `notice_overlap`: the overlapping notice that starts first.
                     */
                    noticeId?: string;
                    /** @description `rank_not_assignable`: the rank the API may neither give nor take; `rank_unchanged`: the current rank. */
                    rank?: string;
                    /**
                     * Format: date-time
                     * @description `application_cooldown`: when the applicant may apply again (the rejection plus the form's cooldown).
                     */
                    retryAfter?: string;
                    /** @description `rate_limited`: requests allowed per window. */
                    limit?: number;
                    /** @description `rate_limited`: window length in seconds. */
                    windowSeconds?: number;
                    /** @description `rate_limited`: seconds until the window resets; `service_unavailable`: seconds to wait before retrying. */
                    retryAfterSeconds?: number;
                } & {
                    [key: string]: unknown;
                };
            };
        };
    };
    responses: {
        /** @description No route has this path (`not_found`), or the resource does not exist or is not visible. */
        NotFound: {
            headers: {
                /** @description Gateway request id of this response; equals `error.requestId`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "not_found",
                 *         "message": "The shift was not found.",
                 *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description The path exists but not with this method (`method_not_allowed`); `Allow` lists the methods it has. */
        MethodNotAllowed: {
            headers: {
                /** @description Gateway request id of this response; equals `error.requestId`. */
                "X-Request-Id": string;
                /**
                 * @description The methods this path answers, comma-separated.
                 * @example GET, HEAD
                 */
                Allow: string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "method_not_allowed",
                 *         "message": "DELETE is not allowed on this path.",
                 *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "service": "workspace-gateway",
                     *       "timestamp": "2026-03-11T12:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        service: string;
                        /**
                         * Format: date-time
                         * @description Server clock.
                         */
                        timestamp: string;
                    };
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What is running here. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "service": "workspace-gateway",
                     *       "apiVersion": "v1",
                     *       "build": "1.0.0+ac0bd29",
                     *       "environment": "production"
                     *     }
                     */
                    "application/json": {
                        service: string;
                        /** @description Major version label of the business API. */
                        apiVersion: string;
                        /** @description Package version, plus the commit when known. */
                        build: string;
                        /** @description Deployment name (GATEWAY_ENV). */
                        environment: string;
                    };
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1.0 document. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "workspace-gateway",
                     *         "version": "1.0.0"
                     *       },
                     *       "paths": {}
                     *     }
                     */
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready: the database answers and no migration is pending. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ready";
                    };
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready (not_ready): the database does not answer or migrations are pending. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics, in the Prometheus text format. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # HELP workspace_gateway_active_shifts Active shifts not yet timed out.
                     *     # TYPE workspace_gateway_active_shifts gauge
                     *     workspace_gateway_active_shifts{environment="live"} 42
                     */
                    "text/plain": string;
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getIntegration: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional; when sent, must equal the connected guild (403).
                 * @example 1234
                 */
                "x-chat-guild-id"?: string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The context of the calling API key. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "application": {
                     *           "id": "2d4f6a8c-1b3d-4e5f-8a7b-9c0d1e2f3a4b",
                     *           "name": "Main game"
                     *         },
                     *         "workspace": {
                     *           "id": "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918",
                     *           "name": "Acme",
                     *           "slug": "acme"
                     *         },
                     *         "environment": "test",
                     *         "scopes": [
                     *           "activity:write",
                     *           "activity:read",
                     *           "staff:read",
                     *           "staff:write",
                     *           "applications:read",
                     *           "applications:write",
                     *           "console:link"
                     *         ],
                     *         "features": {
                     *           "activity": true,
                     *           "applications": true
                     *         },
                     *         "chat": {
                     *           "connected": true,
                     *           "guildId": "1234",
                     *           "status": "connected",
                     *           "connectedAt": "2026-01-01T00:00:00.000Z"
                     *         }
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            application: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                            };
                            workspace: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                slug: string;
                            };
                            environment: "test" | "live";
                            /** @description Scopes of the calling key. */
                            scopes: ("activity:write" | "activity:read" | "staff:read" | "staff:write" | "applications:read" | "applications:write" | "console:link")[];
                            /** @description Feature flags of the application (known features: `activity`, `applications`). */
                            features: {
                                [key: string]: boolean;
                            };
                            chat: {
                                connected: boolean;
                                guildId: string | null;
                                status: string | null;
                                connectedAt: string | null;
                            };
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `application_not_approved`, `guild_mismatch`, `chat_not_connected`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getStaffMe: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required (400). Must equal the workspace's connected guild; a consistency check only.
                 * @example 1234
                 */
                "x-chat-guild-id": string;
                /**
                 * @description Required (400). Chat user id of the invoking staff member.
                 * @example 5551
                 */
                "x-acting-chat-user-id": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The staff profile of the invoking chat user. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *         "displayName": "Alice",
                     *         "gameUserId": "1001",
                     *         "gameUsername": "alice",
                     *         "chatUserId": "5551",
                     *         "department": {
                     *           "id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                     *           "name": "Moderation"
                     *         },
                     *         "rank": "Moderator",
                     *         "status": "active",
                     *         "weeklyRequiredMinutes": 120
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            displayName: string;
                            gameUserId: string;
                            gameUsername: string;
                            chatUserId: string | null;
                            department: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                            } | null;
                            rank: string | null;
                            /** @description `active` or `inactive` (inactive staff cannot start shifts). */
                            status: "active" | "inactive";
                            /** @description Effective weekly requirement: staff override, else department, else workspace setting, else 0. */
                            weeklyRequiredMinutes: number;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `insufficient_scope`, `application_not_approved`, `guild_mismatch`, `chat_not_connected`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listMyInactivityNotices: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required (400). Must equal the workspace's connected guild; a consistency check only.
                 * @example 1234
                 */
                "x-chat-guild-id": string;
                /**
                 * @description Required (400). Chat user id of the invoking staff member.
                 * @example 5551
                 */
                "x-acting-chat-user-id": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The acting staff member's notices. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "notices": [
                     *           {
                     *             "id": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *             "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *             "environment": "live",
                     *             "startsAt": "2026-03-16T00:00:00.000Z",
                     *             "endsAt": "2026-03-23T00:00:00.000Z",
                     *             "reason": "Exams",
                     *             "status": "approved",
                     *             "createdAt": "2026-03-11T12:00:00.000Z",
                     *             "decidedAt": "2026-03-12T09:30:00.000Z",
                     *             "decisionNote": "Good luck with the exams."
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            notices: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                                environment: "test" | "live";
                                /** Format: date-time */
                                startsAt: string;
                                /**
                                 * Format: date-time
                                 * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                                 */
                                endsAt: string;
                                /** @description Why, as the staff member wrote it (trimmed). */
                                reason: string;
                                /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                                status: "pending" | "approved" | "denied" | "cancelled";
                                /**
                                 * Format: date-time
                                 * @description When it was asked for (a provisioned one: first written).
                                 */
                                createdAt: string;
                                /** @description When it was approved or denied; null before a decision. */
                                decidedAt: string | null;
                                /** @description The decision's note; null when none was sent. */
                                decisionNote: string | null;
                            }[];
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `insufficient_scope`, `application_not_approved`, `guild_mismatch`, `chat_not_connected`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    requestInactivityNotice: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required (400). Must equal the workspace's connected guild; a consistency check only.
                 * @example 1234
                 */
                "x-chat-guild-id": string;
                /**
                 * @description Required (400). Chat user id of the invoking staff member.
                 * @example 5551
                 */
                "x-acting-chat-user-id": string;
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the application and environment; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "startsAt": "2026-03-16T00:00:00.000Z",
                 *       "endsAt": "2026-03-23T00:00:00.000Z",
                 *       "reason": "Exams"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-time
                     * @description ISO 8601 date-time with an offset; at most 7 days before now.
                     */
                    startsAt: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 date-time with an offset; after `startsAt` and after now, at most the workspace's `maxNoticeDays` × 24 h after `startsAt`.
                     */
                    endsAt: string;
                    /** @description 1 to 500 characters after trimming. */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The notice was asked for (`pending`). */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "notice": {
                     *           "id": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *           "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *           "environment": "live",
                     *           "startsAt": "2026-03-16T00:00:00.000Z",
                     *           "endsAt": "2026-03-23T00:00:00.000Z",
                     *           "reason": "Exams",
                     *           "status": "pending",
                     *           "createdAt": "2026-03-11T12:00:00.000Z",
                     *           "decidedAt": null,
                     *           "decisionNote": null
                     *         },
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            notice: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                                environment: "test" | "live";
                                /** Format: date-time */
                                startsAt: string;
                                /**
                                 * Format: date-time
                                 * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                                 */
                                endsAt: string;
                                /** @description Why, as the staff member wrote it (trimmed). */
                                reason: string;
                                /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                                status: "pending" | "approved" | "denied" | "cancelled";
                                /**
                                 * Format: date-time
                                 * @description When it was asked for (a provisioned one: first written).
                                 */
                                createdAt: string;
                                /** @description When it was approved or denied; null before a decision. */
                                decidedAt: string | null;
                                /** @description The decision's note; null when none was sent. */
                                decisionNote: string | null;
                            };
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `insufficient_scope`, `application_not_approved`, `guild_mismatch`, `chat_not_connected`, `staff_inactive`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `notice_overlap`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cancelInactivityNotice: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required (400). Must equal the workspace's connected guild; a consistency check only.
                 * @example 1234
                 */
                "x-chat-guild-id": string;
                /**
                 * @description Required (400). Chat user id of the invoking staff member.
                 * @example 5551
                 */
                "x-acting-chat-user-id": string;
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the application and environment; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description Notice id (uuid, in any case). A value that is not a uuid names no notice and is answered 404 `not_found`, like any notice the caller cannot see.
                 * @example 3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a
                 */
                noticeId: string;
            };
            cookie?: never;
        };
        /** @description Optional: no body, or `{}`. Unknown properties are rejected (400). */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The notice was cancelled (or, approved and under way, ended now). */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "notice": {
                     *           "id": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *           "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *           "environment": "live",
                     *           "startsAt": "2026-03-16T00:00:00.000Z",
                     *           "endsAt": "2026-03-23T00:00:00.000Z",
                     *           "reason": "Exams",
                     *           "status": "cancelled",
                     *           "createdAt": "2026-03-11T12:00:00.000Z",
                     *           "decidedAt": null,
                     *           "decisionNote": null
                     *         },
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            notice: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                                environment: "test" | "live";
                                /** Format: date-time */
                                startsAt: string;
                                /**
                                 * Format: date-time
                                 * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                                 */
                                endsAt: string;
                                /** @description Why, as the staff member wrote it (trimmed). */
                                reason: string;
                                /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                                status: "pending" | "approved" | "denied" | "cancelled";
                                /**
                                 * Format: date-time
                                 * @description When it was asked for (a provisioned one: first written).
                                 */
                                createdAt: string;
                                /** @description When it was approved or denied; null before a decision. */
                                decidedAt: string | null;
                                /** @description The decision's note; null when none was sent. */
                                decisionNote: string | null;
                            };
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `insufficient_scope`, `application_not_approved`, `guild_mismatch`, `chat_not_connected`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `notice_finalized`, `invalid_state_transition`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listInactivityNotices: {
        parameters: {
            query?: {
                /**
                 * @description One status or a comma-separated list of `pending`, `approved`, `denied`, `cancelled`; default `pending`.
                 * @example pending
                 */
                status?: string;
                /**
                 * @description `live` (default) or `test`: the environment of the key that asked for the notices.
                 * @example live
                 */
                environment?: "live" | "test";
                /**
                 * @description Only this staff member's notices (a uuid; one that names no staff member gives an empty page).
                 * @example 6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b
                 */
                staffId?: string;
                /**
                 * @description Page size, 1..100 (default 25); outside it, or not an integer, 400.
                 * @example 25
                 */
                limit?: number;
                /**
                 * @description Keyset cursor from `nextCursor`: `startsAt` of the last notice seen. Sent with `cursorId`.
                 * @example 2026-03-16T00:00:00.000Z
                 */
                cursorStartsAt?: string;
                /**
                 * @description Keyset cursor from `nextCursor`: `id` of the last notice seen. Sent with `cursorStartsAt`.
                 * @example 3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a
                 */
                cursorId?: string;
            };
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only that workspace's notices are then visible. Without it, the notices of every workspace the caller is a member of (and, for the list, holds `notices.decide` in) are.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of notices. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "notices": [
                     *           {
                     *             "id": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *             "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *             "environment": "live",
                     *             "startsAt": "2026-03-16T00:00:00.000Z",
                     *             "endsAt": "2026-03-23T00:00:00.000Z",
                     *             "reason": "Exams",
                     *             "status": "pending",
                     *             "createdAt": "2026-03-11T12:00:00.000Z",
                     *             "decidedAt": null,
                     *             "decisionNote": null,
                     *             "staff": {
                     *               "id": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *               "displayName": "Alice",
                     *               "gameUserId": "1001",
                     *               "chatUserId": "5551",
                     *               "departmentId": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
                     *             },
                     *             "decidedBy": null
                     *           }
                     *         ],
                     *         "nextCursor": {
                     *           "cursorStartsAt": "2026-03-16T00:00:00.000Z",
                     *           "cursorId": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a"
                     *         }
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            notices: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                                environment: "test" | "live";
                                /** Format: date-time */
                                startsAt: string;
                                /**
                                 * Format: date-time
                                 * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                                 */
                                endsAt: string;
                                /** @description Why, as the staff member wrote it (trimmed). */
                                reason: string;
                                /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                                status: "pending" | "approved" | "denied" | "cancelled";
                                /**
                                 * Format: date-time
                                 * @description When it was asked for (a provisioned one: first written).
                                 */
                                createdAt: string;
                                /** @description When it was approved or denied; null before a decision. */
                                decidedAt: string | null;
                                /** @description The decision's note; null when none was sent. */
                                decisionNote: string | null;
                                staff: {
                                    /** Format: uuid */
                                    id: string;
                                    displayName: string;
                                    gameUserId: string;
                                    chatUserId: string | null;
                                    departmentId: string | null;
                                };
                                /** @description The deciding member's `userId`; else null. */
                                decidedBy: string | null;
                            }[];
                            /** @description Cursor of the next page; null on the last. */
                            nextCursor: {
                                /**
                                 * Format: date-time
                                 * @description Pass as `cursorStartsAt`.
                                 */
                                cursorStartsAt: string;
                                /**
                                 * Format: uuid
                                 * @description Pass as `cursorId`.
                                 */
                                cursorId: string;
                            } | null;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    approveInactivityNotice: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the dashboard user; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only that workspace's notices are then visible. Without it, the notices of every workspace the caller is a member of (and, for the list, holds `notices.decide` in) are.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Notice id (uuid, in any case). A value that is not a uuid names no notice and is answered 404 `not_found`, like any notice the caller cannot see.
                 * @example 3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a
                 */
                noticeId: string;
            };
            cookie?: never;
        };
        /** @description Optional. Unknown properties are rejected (400). */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "note": "Good luck with the exams."
                 *     }
                 */
                "application/json": {
                    /** @description 1 to 1000 characters after trimming. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The notice was approved. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "notice": {
                     *           "id": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *           "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *           "environment": "live",
                     *           "startsAt": "2026-03-16T00:00:00.000Z",
                     *           "endsAt": "2026-03-23T00:00:00.000Z",
                     *           "reason": "Exams",
                     *           "status": "approved",
                     *           "createdAt": "2026-03-11T12:00:00.000Z",
                     *           "decidedAt": "2026-03-12T09:30:00.000Z",
                     *           "decisionNote": "Good luck with the exams."
                     *         },
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            notice: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                                environment: "test" | "live";
                                /** Format: date-time */
                                startsAt: string;
                                /**
                                 * Format: date-time
                                 * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                                 */
                                endsAt: string;
                                /** @description Why, as the staff member wrote it (trimmed). */
                                reason: string;
                                /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                                status: "pending" | "approved" | "denied" | "cancelled";
                                /**
                                 * Format: date-time
                                 * @description When it was asked for (a provisioned one: first written).
                                 */
                                createdAt: string;
                                /** @description When it was approved or denied; null before a decision. */
                                decidedAt: string | null;
                                /** @description The decision's note; null when none was sent. */
                                decisionNote: string | null;
                            };
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `notice_overlap`, `invalid_state_transition`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    denyInactivityNotice: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the dashboard user; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only that workspace's notices are then visible. Without it, the notices of every workspace the caller is a member of (and, for the list, holds `notices.decide` in) are.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Notice id (uuid, in any case). A value that is not a uuid names no notice and is answered 404 `not_found`, like any notice the caller cannot see.
                 * @example 3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a
                 */
                noticeId: string;
            };
            cookie?: never;
        };
        /** @description Optional. Unknown properties are rejected (400). */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "note": "Good luck with the exams."
                 *     }
                 */
                "application/json": {
                    /** @description 1 to 1000 characters after trimming. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The notice was denied. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "notice": {
                     *           "id": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *           "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *           "environment": "live",
                     *           "startsAt": "2026-03-16T00:00:00.000Z",
                     *           "endsAt": "2026-03-23T00:00:00.000Z",
                     *           "reason": "Exams",
                     *           "status": "denied",
                     *           "createdAt": "2026-03-11T12:00:00.000Z",
                     *           "decidedAt": "2026-03-12T09:30:00.000Z",
                     *           "decisionNote": "We need you that week."
                     *         },
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            notice: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                                environment: "test" | "live";
                                /** Format: date-time */
                                startsAt: string;
                                /**
                                 * Format: date-time
                                 * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                                 */
                                endsAt: string;
                                /** @description Why, as the staff member wrote it (trimmed). */
                                reason: string;
                                /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                                status: "pending" | "approved" | "denied" | "cancelled";
                                /**
                                 * Format: date-time
                                 * @description When it was asked for (a provisioned one: first written).
                                 */
                                createdAt: string;
                                /** @description When it was approved or denied; null before a decision. */
                                decidedAt: string | null;
                                /** @description The decision's note; null when none was sent. */
                                decisionNote: string | null;
                            };
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `invalid_state_transition`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    changeStaffRank: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the dashboard user; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only that workspace's staff are then visible.
                 * @example 0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Staff member id (uuid, in any case). Not a uuid, unknown, or not visible to the caller: 404 `not_found`.
                 * @example 6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b
                 */
                staffId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rank": "Senior Moderator",
                 *       "reason": "Six months of steady work"
                 *     }
                 */
                "application/json": {
                    /** @description The rank to give: one of the workspace's rank names. */
                    rank: string;
                    /** @description 1 to 500 characters after trimming. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The rank was changed; its sync is under way. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "staff": {
                     *           "id": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *           "displayName": "Alice",
                     *           "gameUserId": "1001",
                     *           "gameUsername": "alice",
                     *           "chatUserId": "5551",
                     *           "departmentId": null,
                     *           "rank": "Senior Moderator",
                     *           "status": "active"
                     *         },
                     *         "change": {
                     *           "id": "01936a4e-2b7c-7d3e-8f41-5a6b7c8d9e0f",
                     *           "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *           "fromRank": "Moderator",
                     *           "toRank": "Senior Moderator",
                     *           "reason": "Six months of steady work",
                     *           "changedBy": "idp|manager-1",
                     *           "createdAt": "2026-03-11T12:00:00.000Z",
                     *           "sync": {
                     *             "status": "pending",
                     *             "attempts": 0,
                     *             "lastError": null,
                     *             "appliedAt": null
                     *           }
                     *         },
                     *         "commandId": "01936a4e-2b7c-7d3e-8f41-5a6b7c8d9e10",
                     *         "eventId": "01936a4e-2b7c-7d3e-8f41-5a6b7c8d9e11"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            staff: {
                                /** Format: uuid */
                                id: string;
                                displayName: string;
                                gameUserId: string;
                                gameUsername: string;
                                chatUserId: string | null;
                                departmentId: string | null;
                                /** @description The rank now held; null for none. */
                                rank: string | null;
                                status: "active" | "inactive";
                            };
                            change: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The rank before; null for an acceptance's entry rank. */
                                fromRank: string | null;
                                toRank: string;
                                /** @description As sent, trimmed; null when none was sent. */
                                reason: string | null;
                                /** @description The member's `userId` (for an entry rank, the deciding member's). */
                                changedBy: string;
                                /** Format: date-time */
                                createdAt: string;
                                sync: {
                                    /** @description `pending` (to be applied, or retrying), `applied`, `failed` (Open Cloud refused, or the staff member was erased), `not_configured` (no group id or API key, or neither rank has a role id). */
                                    status: "pending" | "applied" | "failed" | "not_configured";
                                    /** @description Every try so far. */
                                    attempts: number;
                                    /** @description The last failed try; null once applied. */
                                    lastError: {
                                        /** @description The HTTP status Open Cloud answered; null for a timeout or a network error. */
                                        status: number | null;
                                        /** @description Open Cloud's error `code` (e.g. `PERMISSION_DENIED`), or `timeout`, `network_error`, `erased`. */
                                        code: string;
                                        /** @description Open Cloud's error `message`, or what went wrong. */
                                        message: string;
                                    } | null;
                                    appliedAt: string | null;
                                };
                            };
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`, `rank_not_assignable`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `rank_unchanged`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listStaffRankChanges: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only that workspace's staff are then visible.
                 * @example 0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Staff member id (uuid, in any case). Not a uuid, unknown, or not visible to the caller: 404 `not_found`.
                 * @example 6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b
                 */
                staffId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The staff member's rank changes, newest first, at most 50. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "changes": [
                     *           {
                     *             "id": "01936a4e-2b7c-7d3e-8f41-5a6b7c8d9e0f",
                     *             "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *             "fromRank": "Moderator",
                     *             "toRank": "Senior Moderator",
                     *             "reason": "Six months of steady work",
                     *             "changedBy": "idp|manager-1",
                     *             "createdAt": "2026-03-11T12:00:00.000Z",
                     *             "sync": {
                     *               "status": "applied",
                     *               "attempts": 1,
                     *               "lastError": null,
                     *               "appliedAt": "2026-03-11T12:00:01.000Z"
                     *             }
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            changes: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The rank before; null for an acceptance's entry rank. */
                                fromRank: string | null;
                                toRank: string;
                                /** @description As sent, trimmed; null when none was sent. */
                                reason: string | null;
                                /** @description The member's `userId` (for an entry rank, the deciding member's). */
                                changedBy: string;
                                /** Format: date-time */
                                createdAt: string;
                                sync: {
                                    /** @description `pending` (to be applied, or retrying), `applied`, `failed` (Open Cloud refused, or the staff member was erased), `not_configured` (no group id or API key, or neither rank has a role id). */
                                    status: "pending" | "applied" | "failed" | "not_configured";
                                    /** @description Every try so far. */
                                    attempts: number;
                                    /** @description The last failed try; null once applied. */
                                    lastError: {
                                        /** @description The HTTP status Open Cloud answered; null for a timeout or a network error. */
                                        status: number | null;
                                        /** @description Open Cloud's error `code` (e.g. `PERMISSION_DENIED`), or `timeout`, `network_error`, `erased`. */
                                        code: string;
                                        /** @description Open Cloud's error `message`, or what went wrong. */
                                        message: string;
                                    } | null;
                                    appliedAt: string | null;
                                };
                            }[];
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    takeRobloxErasureRequest: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description `t=<unix seconds>,v1=<base64 signature>`.
                 * @example t=1773230400,v1=K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "roblox-signature"?: string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description The workspace whose webhook this is.
                 * @example 7a1f0c52-3b4d-4e6f-8a9b-0c1d2e3f4a01
                 */
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The notification was taken. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "notificationId": "5f1c9e2a-7b3d-4c6e-8a9f-0b1c2d3e4f5a",
                     *         "outcome": "erased"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description The notification's `NotificationId`. */
                            notificationId: string;
                            /** @description `erased` (done before this answer), `erasing` (a large workspace: answered first, finished in the background), `ignored` (another event type), `repeated` (a notification id seen before: nothing more erased). */
                            outcome: "erased" | "erasing" | "ignored" | "repeated";
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getActivitySummary: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required (400). Must equal the workspace's connected guild; a consistency check only.
                 * @example 1234
                 */
                "x-chat-guild-id": string;
                /**
                 * @description Required (400). Chat user id of the invoking staff member.
                 * @example 5551
                 */
                "x-acting-chat-user-id": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activity summary of the invoking staff member. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "todayMinutes": 45,
                     *         "currentWeekMinutes": 150,
                     *         "previousWeekMinutes": 210,
                     *         "currentMonthMinutes": 480,
                     *         "weeklyRequiredMinutes": 90,
                     *         "progressPercent": 166.67,
                     *         "activeShift": {
                     *           "id": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b",
                     *           "startedAt": "2026-03-11T12:00:00.000Z",
                     *           "lastHeartbeatAt": "2026-03-11T12:05:00.000Z",
                     *           "elapsedSeconds": 420,
                     *           "universeId": "42",
                     *           "placeId": "7",
                     *           "serverId": "srv-eu-1"
                     *         },
                     *         "inactivityEffect": {
                     *           "noticeId": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *           "startsAt": "2026-03-09T00:00:00.000Z",
                     *           "endsAt": "2026-03-12T00:00:00.000Z",
                     *           "reason": "exams",
                     *           "waivedMinutes": 30
                     *         },
                     *         "timezone": "Europe/Berlin",
                     *         "currentWeekStart": "2026-03-08T23:00:00.000Z",
                     *         "currentWeekEnd": "2026-03-15T23:00:00.000Z",
                     *         "currentMonthStart": "2026-02-28T23:00:00.000Z",
                     *         "currentMonthEnd": "2026-03-31T22:00:00.000Z"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "discord-interaction-1187"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Completed minutes of the local calendar day. */
                            todayMinutes: number;
                            /** @description Completed minutes of the current week (Monday 00:00 local). */
                            currentWeekMinutes: number;
                            /** @description Completed minutes of the previous week. */
                            previousWeekMinutes: number;
                            /** @description Completed minutes of the current month. */
                            currentMonthMinutes: number;
                            /** @description This week's requirement (staff override, else department, else workspace, else 0) less the minutes waived by approved inactivity notices. */
                            weeklyRequiredMinutes: number;
                            /** @description `currentWeekMinutes` / `weeklyRequiredMinutes` × 100, rounded half up to two decimals, not capped; 100 when the requirement is 0. */
                            progressPercent: number;
                            activeShift: {
                                /** Format: uuid */
                                id: string;
                                /**
                                 * Format: date-time
                                 * @description Game-server start time.
                                 */
                                startedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Latest game-server heartbeat time.
                                 */
                                lastHeartbeatAt: string;
                                /** @description Whole seconds from `startedAt` to the server clock now. Never part of the completed totals. */
                                elapsedSeconds: number;
                                universeId: string;
                                placeId: string;
                                serverId: string;
                            } | null;
                            inactivityEffect: {
                                /** Format: uuid */
                                noticeId: string;
                                /**
                                 * Format: date-time
                                 * @description Start of the notice (not clipped to the week).
                                 */
                                startsAt: string;
                                /**
                                 * Format: date-time
                                 * @description End of the notice (not clipped to the week).
                                 */
                                endsAt: string;
                                reason: string;
                                /** @description Whole minutes waived from this week's requirement by every approved notice overlapping the week together (their union, counted once): requirement × overlap / week length, rounded down. */
                                waivedMinutes: number;
                            } | null;
                            /** @description Workspace time zone the periods are computed in (default UTC). */
                            timezone: string;
                            /**
                             * Format: date-time
                             * @description Start of the current week.
                             */
                            currentWeekStart: string;
                            /**
                             * Format: date-time
                             * @description End (exclusive) of the current week: the next Monday 00:00.
                             */
                            currentWeekEnd: string;
                            /**
                             * Format: date-time
                             * @description Start of the current month.
                             */
                            currentMonthStart: string;
                            /**
                             * Format: date-time
                             * @description End (exclusive) of the current month: the next 1st 00:00.
                             */
                            currentMonthEnd: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`, `guild_mismatch`, `chat_not_connected`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getStaffActivity: {
        parameters: {
            query?: {
                /**
                 * @description `week` (default: Monday 00:00 to the next Monday 00:00 in the workspace time zone) or `month` (the 1st 00:00 to the next 1st). Any other value is accepted and means `week`. Ignored when `start` and `end` are sent.
                 * @example month
                 */
                period?: ("week" | "month") | string;
                /**
                 * @description Custom range start, an ISO 8601 date-time with offset (encode `+` as `%2B`; seconds may be left out). Requires `end`; together they override `period`. Malformed: 400.
                 * @example 2026-03-01T00:00:00Z
                 */
                start?: string;
                /**
                 * @description Custom range end (exclusive), an ISO 8601 date-time with offset. Requires `start`; must be later than it and at most 366 × 24 hours after it (400).
                 * @example 2026-03-08T00:00:00Z
                 */
                end?: string;
            };
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description Game user id of a staff member of the key's workspace (404 when there is none).
                 * @example 1001
                 */
                gameUserId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Totals of the staff member over the period. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "staff": {
                     *           "id": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *           "displayName": "Alice",
                     *           "gameUserId": "1001"
                     *         },
                     *         "period": {
                     *           "start": "2026-03-09T00:00:00.000Z",
                     *           "end": "2026-03-16T00:00:00.000Z",
                     *           "timezone": "UTC"
                     *         },
                     *         "totalSeconds": 9015,
                     *         "totalMinutes": 150,
                     *         "completedShifts": 3,
                     *         "activeShift": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            staff: {
                                /** Format: uuid */
                                id: string;
                                displayName: string;
                                gameUserId: string;
                            };
                            period: {
                                /**
                                 * Format: date-time
                                 * @description Start of the period (inclusive).
                                 */
                                start: string;
                                /**
                                 * Format: date-time
                                 * @description End of the period (exclusive).
                                 */
                                end: string;
                                /** @description Workspace time zone. */
                                timezone: string;
                            };
                            /** @description Completed shifts clipped to the period: floor of the summed clipped milliseconds / 1000. */
                            totalSeconds: number;
                            /** @description `totalSeconds` in whole minutes, rounded down. */
                            totalMinutes: number;
                            /** @description Completed shifts overlapping the period. */
                            completedShifts: number;
                            activeShift: {
                                /** Format: uuid */
                                id: string;
                                /**
                                 * Format: date-time
                                 * @description Game-server start time.
                                 */
                                startedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Latest game-server heartbeat time.
                                 */
                                lastHeartbeatAt: string;
                                /** @description Whole seconds from `startedAt` to the server clock now. Never part of the completed totals. */
                                elapsedSeconds: number;
                                universeId: string;
                                placeId: string;
                                serverId: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getActivityLeaderboard: {
        parameters: {
            query?: {
                /**
                 * @description `week` (default: Monday 00:00 to the next Monday 00:00 in the workspace time zone) or `month` (the 1st 00:00 to the next 1st). Any other value is accepted and means `week`. Ignored when `start` and `end` are sent.
                 * @example month
                 */
                period?: ("week" | "month") | string;
                /**
                 * @description Custom range start, an ISO 8601 date-time with offset (encode `+` as `%2B`; seconds may be left out). Requires `end`; together they override `period`. Malformed: 400.
                 * @example 2026-03-01T00:00:00Z
                 */
                start?: string;
                /**
                 * @description Custom range end (exclusive), an ISO 8601 date-time with offset. Requires `start`; must be later than it and at most 366 × 24 hours after it (400).
                 * @example 2026-03-08T00:00:00Z
                 */
                end?: string;
                /**
                 * @description With a dashboard token: the environment read, `live` (default) or `test` (anything else is 400). With an API key the key's own environment is read and this parameter is ignored.
                 * @example live
                 */
                environment?: "live" | "test";
                /**
                 * @description Entries per page, an integer from 1 to 100 (anything else is 400). Default 25.
                 * @example 25
                 */
                limit?: number;
                /**
                 * @description From `nextCursor` of the previous page; requires `cursorStaffId` (400 alone).
                 * @example 5400
                 */
                cursorTotalSeconds?: number;
                /**
                 * @description From `nextCursor` of the previous page (a uuid, else 400); requires `cursorTotalSeconds`.
                 * @example 6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b
                 */
                cursorStaffId?: string;
                /**
                 * @description Only staff of this department (a uuid, else 400); positions count within the filtered list. A department that does not exist in the workspace yields an empty page.
                 * @example 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
                 */
                departmentId?: string;
                /**
                 * @description `true` or `1` also lists inactive staff; `false`, `0`, no value, or any other value does not (other values are accepted, not rejected).
                 * @example true
                 */
                includeInactive?: boolean | ("1" | "0") | string;
            };
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description With a dashboard token: the workspace read (a uuid), never authorization: the caller must be a member of it (403 `workspace_access_denied`). Required when the caller is a member of several workspaces (400), else their only workspace is read. Ignored with an API key.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the ranking. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "entries": [
                     *           {
                     *             "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *             "displayName": "Alice",
                     *             "gameUserId": "1001",
                     *             "gameUsername": "alice",
                     *             "totalSeconds": 9015,
                     *             "totalMinutes": 150,
                     *             "completedShifts": 3,
                     *             "department": "Moderation",
                     *             "rank": "Moderator",
                     *             "progressPercent": 125,
                     *             "position": 1
                     *           }
                     *         ],
                     *         "nextCursor": {
                     *           "cursorTotalSeconds": 9015,
                     *           "cursorStaffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b"
                     *         },
                     *         "period": {
                     *           "start": "2026-03-09T00:00:00.000Z",
                     *           "end": "2026-03-16T00:00:00.000Z",
                     *           "timezone": "UTC"
                     *         }
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "discord-interaction-1187"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            entries: {
                                /** Format: uuid */
                                staffId: string;
                                displayName: string;
                                gameUserId: string;
                                gameUsername: string;
                                /** @description Completed shifts clipped to the period: floor of the summed clipped milliseconds / 1000. */
                                totalSeconds: number;
                                /** @description `totalSeconds` in whole minutes, rounded down. */
                                totalMinutes: number;
                                /** @description Completed shifts overlapping the period. */
                                completedShifts: number;
                                /** @description Department name; "" when unset. */
                                department: string;
                                /** @description "" when unset. */
                                rank: string;
                                /** @description Period minutes / the period's requirement × 100, two decimals (half up), not capped; 100 when the requirement is 0. The requirement is the weekly one × calendar days / 7 (week, month) or × range / 7 days (custom), less what approved inactivity notices waive. */
                                progressPercent: number;
                                /** @description Absolute 1-based position in the whole (filtered) ranking, also on later pages. */
                                position: number;
                            }[];
                            /** @description Cursor of the next page; null on the last page. */
                            nextCursor: {
                                /** @description Pass as `cursorTotalSeconds`. */
                                cursorTotalSeconds: number;
                                /**
                                 * Format: uuid
                                 * @description Pass as `cursorStaffId`.
                                 */
                                cursorStaffId: string;
                            } | null;
                            period: {
                                /**
                                 * Format: date-time
                                 * @description Start of the period (inclusive).
                                 */
                                start: string;
                                /**
                                 * Format: date-time
                                 * @description End of the period (exclusive).
                                 */
                                end: string;
                                /** @description Workspace time zone. */
                                timezone: string;
                            };
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`, `workspace_access_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listStaff: {
        parameters: {
            query?: {
                /**
                 * @description `active` (default), `inactive` or `all`; anything else is 400.
                 * @example active
                 */
                status?: "active" | "inactive" | "all";
                /**
                 * @description Only staff of this department (a uuid, else 400; one of no department here gives an empty page).
                 * @example 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
                 */
                departmentId?: string;
                /**
                 * @description Only staff holding exactly this rank (compared as is).
                 * @example Moderator
                 */
                rank?: string;
                /**
                 * @description Staff per page, an integer from 1 to 100 (anything else is 400). Default 50.
                 * @example 50
                 */
                limit?: number;
                /**
                 * @description From `nextCursor` of the previous page; requires `cursorId` (400 alone).
                 * @example Alice
                 */
                cursorDisplayName?: string;
                /**
                 * @description From `nextCursor` of the previous page (a uuid, else 400); requires `cursorDisplayName`.
                 * @example 6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b
                 */
                cursorId?: string;
                /**
                 * @description With a dashboard token: the environment read, `live` (default) or `test` (anything else is 400). With an API key the key's own environment is read and this parameter is ignored.
                 * @example live
                 */
                environment?: "live" | "test";
            };
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description With a dashboard token: the workspace read (a uuid), never authorization: the caller must be a member of it (403 `workspace_access_denied`). Required when the caller is a member of several workspaces (400), else their only workspace is read. Ignored with an API key.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the roster. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "staff": [
                     *           {
                     *             "id": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *             "displayName": "Alice",
                     *             "gameUserId": "1001",
                     *             "gameUsername": "alice",
                     *             "chatUserId": "112233445566778899",
                     *             "departmentId": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                     *             "rank": "Moderator",
                     *             "status": "active",
                     *             "week": {
                     *               "totalMinutes": 150,
                     *               "requiredMinutes": 180,
                     *               "progressPercent": 83.33
                     *             },
                     *             "activeShift": {
                     *               "id": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b",
                     *               "startedAt": "2026-03-11T11:40:00.000Z"
                     *             }
                     *           }
                     *         ],
                     *         "nextCursor": {
                     *           "cursorDisplayName": "Alice",
                     *           "cursorId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b"
                     *         }
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            staff: {
                                /** Format: uuid */
                                id: string;
                                displayName: string;
                                gameUserId: string;
                                gameUsername: string;
                                /** @description The staff member's chat user id; null when none. */
                                chatUserId: string | null;
                                /**
                                 * Format: uuid
                                 * @description Null without a department.
                                 */
                                departmentId: string | null;
                                /** @description Null without a rank. */
                                rank: string | null;
                                /**
                                 * @description `active` or `inactive`.
                                 * @enum {string}
                                 */
                                status: "active" | "inactive";
                                /** @description The current week (Monday 00:00 in the workspace time zone) exactly as the leaderboard's entry and the activity summary compute it. */
                                week: {
                                    /** @description `totalSeconds` in whole minutes, rounded down. */
                                    totalMinutes: number;
                                    /** @description The week's requirement (staff override, else department, else workspace, else 0) less what approved inactivity notices of the environment waive, as the summary's `weeklyRequiredMinutes`. */
                                    requiredMinutes: number;
                                    /** @description `totalMinutes` / `requiredMinutes` × 100, rounded half up to two decimals, not capped; 100 when the requirement is 0. */
                                    progressPercent: number;
                                };
                                /** @description The shift under way in the environment read (the most recently started when several applications have one); null when the staff member is not on duty. A shift that timed out is not under way. */
                                activeShift: {
                                    /** Format: uuid */
                                    id: string;
                                    /**
                                     * Format: date-time
                                     * @description Game-server start time.
                                     */
                                    startedAt: string;
                                } | null;
                            }[];
                            /** @description Cursor of the next page; null on the last. */
                            nextCursor: {
                                /** @description Pass as `cursorDisplayName`. */
                                cursorDisplayName: string;
                                /**
                                 * Format: uuid
                                 * @description Pass as `cursorId`.
                                 */
                                cursorId: string;
                            } | null;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getStaffMember: {
        parameters: {
            query?: {
                /**
                 * @description With a dashboard token: the environment read, `live` (default) or `test` (anything else is 400). With an API key the key's own environment is read and this parameter is ignored.
                 * @example live
                 */
                environment?: "live" | "test";
            };
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description With a dashboard token: the workspace read (a uuid), never authorization: the caller must be a member of it (403 `workspace_access_denied`). Required when the caller is a member of several workspaces (400), else their only workspace is read. Ignored with an API key.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Staff member id (uuid, in any case). Any other value names no staff member (404).
                 * @example 6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b
                 */
                staffId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The staff member's page. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "staff": {
                     *           "id": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *           "displayName": "Alice",
                     *           "gameUserId": "1001",
                     *           "gameUsername": "alice",
                     *           "chatUserId": "112233445566778899",
                     *           "departmentId": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                     *           "rank": "Moderator",
                     *           "status": "active",
                     *           "week": {
                     *             "totalMinutes": 150,
                     *             "requiredMinutes": 180,
                     *             "progressPercent": 83.33
                     *           },
                     *           "activeShift": {
                     *             "id": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b",
                     *             "startedAt": "2026-03-11T11:40:00.000Z"
                     *           }
                     *         },
                     *         "week": {
                     *           "period": {
                     *             "start": "2026-03-09T00:00:00.000Z",
                     *             "end": "2026-03-16T00:00:00.000Z",
                     *             "timezone": "UTC"
                     *           },
                     *           "totalSeconds": 9015,
                     *           "totalMinutes": 150,
                     *           "completedShifts": 3,
                     *           "requiredMinutes": 180,
                     *           "progressPercent": 83.33
                     *         },
                     *         "month": {
                     *           "period": {
                     *             "start": "2026-03-01T00:00:00.000Z",
                     *             "end": "2026-04-01T00:00:00.000Z",
                     *             "timezone": "UTC"
                     *           },
                     *           "totalSeconds": 19530,
                     *           "totalMinutes": 325,
                     *           "completedShifts": 7
                     *         },
                     *         "weeks": [
                     *           {
                     *             "start": "2026-01-19T00:00:00.000Z",
                     *             "totalMinutes": 200,
                     *             "requiredMinutes": 180
                     *           },
                     *           {
                     *             "start": "2026-01-26T00:00:00.000Z",
                     *             "totalMinutes": 185,
                     *             "requiredMinutes": 180
                     *           },
                     *           {
                     *             "start": "2026-02-02T00:00:00.000Z",
                     *             "totalMinutes": 0,
                     *             "requiredMinutes": 0
                     *           },
                     *           {
                     *             "start": "2026-02-09T00:00:00.000Z",
                     *             "totalMinutes": 90,
                     *             "requiredMinutes": 180
                     *           },
                     *           {
                     *             "start": "2026-02-16T00:00:00.000Z",
                     *             "totalMinutes": 240,
                     *             "requiredMinutes": 180
                     *           },
                     *           {
                     *             "start": "2026-02-23T00:00:00.000Z",
                     *             "totalMinutes": 180,
                     *             "requiredMinutes": 180
                     *           },
                     *           {
                     *             "start": "2026-03-02T00:00:00.000Z",
                     *             "totalMinutes": 175,
                     *             "requiredMinutes": 180
                     *           },
                     *           {
                     *             "start": "2026-03-09T00:00:00.000Z",
                     *             "totalMinutes": 150,
                     *             "requiredMinutes": 180
                     *           }
                     *         ],
                     *         "recentShifts": [
                     *           {
                     *             "id": "4c2b1a09-8f7e-4d6c-9b5a-3e2d1c0b9a87",
                     *             "startedAt": "2026-03-10T18:00:00.000Z",
                     *             "endedAt": "2026-03-10T19:30:15.000Z",
                     *             "minutes": 90,
                     *             "endReason": "player_left"
                     *           }
                     *         ],
                     *         "notices": [
                     *           {
                     *             "id": "2d3e4f50-6172-4839-8a4b-5c6d7e8f9a0b",
                     *             "staffId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *             "environment": "live",
                     *             "startsAt": "2026-02-02T00:00:00.000Z",
                     *             "endsAt": "2026-02-09T00:00:00.000Z",
                     *             "status": "approved",
                     *             "createdAt": "2026-01-28T09:12:00.000Z",
                     *             "decidedAt": "2026-01-28T17:40:00.000Z"
                     *           }
                     *         ],
                     *         "rankChanges": []
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            staff: {
                                /** Format: uuid */
                                id: string;
                                displayName: string;
                                gameUserId: string;
                                gameUsername: string;
                                /** @description The staff member's chat user id; null when none. */
                                chatUserId: string | null;
                                /**
                                 * Format: uuid
                                 * @description Null without a department.
                                 */
                                departmentId: string | null;
                                /** @description Null without a rank. */
                                rank: string | null;
                                /**
                                 * @description `active` or `inactive`.
                                 * @enum {string}
                                 */
                                status: "active" | "inactive";
                                /** @description The current week (Monday 00:00 in the workspace time zone) exactly as the leaderboard's entry and the activity summary compute it. */
                                week: {
                                    /** @description `totalSeconds` in whole minutes, rounded down. */
                                    totalMinutes: number;
                                    /** @description The week's requirement (staff override, else department, else workspace, else 0) less what approved inactivity notices of the environment waive, as the summary's `weeklyRequiredMinutes`. */
                                    requiredMinutes: number;
                                    /** @description `totalMinutes` / `requiredMinutes` × 100, rounded half up to two decimals, not capped; 100 when the requirement is 0. */
                                    progressPercent: number;
                                };
                                /** @description The shift under way in the environment read (the most recently started when several applications have one); null when the staff member is not on duty. A shift that timed out is not under way. */
                                activeShift: {
                                    /** Format: uuid */
                                    id: string;
                                    /**
                                     * Format: date-time
                                     * @description Game-server start time.
                                     */
                                    startedAt: string;
                                } | null;
                            };
                            /** @description The current week, as the per-staff aggregates give it, with its requirement and progress. */
                            week: {
                                period: {
                                    /**
                                     * Format: date-time
                                     * @description Start of the period (inclusive).
                                     */
                                    start: string;
                                    /**
                                     * Format: date-time
                                     * @description End of the period (exclusive).
                                     */
                                    end: string;
                                    /** @description Workspace time zone. */
                                    timezone: string;
                                };
                                /** @description Completed shifts clipped to the period: floor of the summed clipped milliseconds / 1000. */
                                totalSeconds: number;
                                /** @description `totalSeconds` in whole minutes, rounded down. */
                                totalMinutes: number;
                                /** @description Completed shifts overlapping the period. */
                                completedShifts: number;
                                /** @description The week's requirement (staff override, else department, else workspace, else 0) less what approved inactivity notices of the environment waive, as the summary's `weeklyRequiredMinutes`. */
                                requiredMinutes: number;
                                /** @description `totalMinutes` / `requiredMinutes` × 100, rounded half up to two decimals, not capped; 100 when the requirement is 0. */
                                progressPercent: number;
                            };
                            /** @description The current month, as the per-staff aggregates give it. */
                            month: {
                                period: {
                                    /**
                                     * Format: date-time
                                     * @description Start of the period (inclusive).
                                     */
                                    start: string;
                                    /**
                                     * Format: date-time
                                     * @description End of the period (exclusive).
                                     */
                                    end: string;
                                    /** @description Workspace time zone. */
                                    timezone: string;
                                };
                                /** @description Completed shifts clipped to the period: floor of the summed clipped milliseconds / 1000. */
                                totalSeconds: number;
                                /** @description `totalSeconds` in whole minutes, rounded down. */
                                totalMinutes: number;
                                /** @description Completed shifts overlapping the period. */
                                completedShifts: number;
                            };
                            /** @description The last 8 weeks, oldest first, the current one last. */
                            weeks: {
                                /**
                                 * Format: date-time
                                 * @description Monday 00:00 of the week in the workspace time zone.
                                 */
                                start: string;
                                /** @description `totalSeconds` in whole minutes, rounded down. */
                                totalMinutes: number;
                                /** @description The week's requirement (staff override, else department, else workspace, else 0) less what approved inactivity notices of the environment waive, as the summary's `weeklyRequiredMinutes`. */
                                requiredMinutes: number;
                            }[];
                            /** @description The last 20 completed shifts of the environment read, by `startedAt`, newest first. */
                            recentShifts: {
                                /** Format: uuid */
                                id: string;
                                /**
                                 * Format: date-time
                                 * @description Game-server start time.
                                 */
                                startedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Game-server end time.
                                 */
                                endedAt: string;
                                /** @description Whole minutes of the shift, rounded down. */
                                minutes: number;
                                /** @description Why it ended; `heartbeat_timeout` when nothing was received for SHIFT_TIMEOUT_SECONDS. */
                                endReason: "manual" | "player_left" | "server_shutdown" | "heartbeat_timeout";
                            }[];
                            /** @description The last 10 inactivity notices of the environment read, by `startsAt`, newest first. */
                            notices: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                environment: "live" | "test";
                                /**
                                 * Format: date-time
                                 * @description Start of the time off.
                                 */
                                startsAt: string;
                                /**
                                 * Format: date-time
                                 * @description End (exclusive) of the time off.
                                 */
                                endsAt: string;
                                status: "pending" | "approved" | "denied" | "cancelled";
                                /**
                                 * Format: date-time
                                 * @description When it was asked for (a provisioned one: when first written).
                                 */
                                createdAt: string;
                                /** @description When it was approved or denied; null otherwise. */
                                decidedAt: string | null;
                            }[];
                            /** @description The last 10 rank changes of the staff member, newest first; empty when the workspace has none. */
                            rankChanges: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                staffId: string;
                                /** @description The rank before; null for an acceptance's entry rank. */
                                fromRank: string | null;
                                toRank: string;
                                /** @description As sent, trimmed; null when none was sent. */
                                reason: string | null;
                                /** @description The member's `userId` (for an entry rank, the deciding member's). */
                                changedBy: string;
                                /** Format: date-time */
                                createdAt: string;
                                sync: {
                                    /** @description `pending` (to be applied, or retrying), `applied`, `failed` (Open Cloud refused, or the staff member was erased), `not_configured` (no group id or API key, or neither rank has a role id). */
                                    status: "pending" | "applied" | "failed" | "not_configured";
                                    /** @description Every try so far. */
                                    attempts: number;
                                    /** @description The last failed try; null once applied. */
                                    lastError: {
                                        /** @description The HTTP status Open Cloud answered; null for a timeout or a network error. */
                                        status: number | null;
                                        /** @description Open Cloud's error `code` (e.g. `PERMISSION_DENIED`), or `timeout`, `network_error`, `erased`. */
                                        code: string;
                                        /** @description Open Cloud's error `message`, or what went wrong. */
                                        message: string;
                                    } | null;
                                    appliedAt: string | null;
                                };
                            }[];
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    startShift: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the API key's application and environment; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "gameUserId": "1001",
                 *       "universeId": "42",
                 *       "placeId": "7",
                 *       "serverId": "srv-eu-1",
                 *       "startedAt": "2026-03-11T12:00:00.000Z"
                 *     }
                 */
                "application/json": {
                    /** @description Game user id of a staff member of the key's workspace. A string of 1 to 64 characters, or a non-negative integer up to 2^53-1 (stored as its decimal string). */
                    gameUserId: string | number;
                    /** @description Game universe; must be in the application's allowed list (403 `universe_not_allowed`). A string of 1 to 64 characters, or a non-negative integer up to 2^53-1 (stored as its decimal string). */
                    universeId: string | number;
                    /** @description Game place. A string of 1 to 64 characters, or a non-negative integer up to 2^53-1 (stored as its decimal string). */
                    placeId: string | number;
                    /** @description Game server instance running the shift; heartbeats may name it (409 `server_mismatch`). */
                    serverId: string;
                    /**
                     * Format: date-time
                     * @description Game-server time the shift started; defaults to the server clock. Must lie within the last 24 hours and at most 60 seconds ahead of the server clock (400).
                     */
                    startedAt?: string;
                };
            };
        };
        responses: {
            /** @description The new shift (`existing: false`) or the staff member's active one (`existing: true`). */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "shift": {
                     *           "id": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b",
                     *           "status": "active",
                     *           "startedAt": "2026-03-11T12:00:00.000Z",
                     *           "lastHeartbeatAt": "2026-03-11T12:00:00.000Z"
                     *         },
                     *         "existing": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            shift: {
                                /**
                                 * Format: uuid
                                 * @description Shift id.
                                 */
                                id: string;
                                /** @enum {string} */
                                status: "active";
                                /**
                                 * Format: date-time
                                 * @description Game-server start time.
                                 */
                                startedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Latest game-server heartbeat time (equals `startedAt` until one arrives).
                                 */
                                lastHeartbeatAt: string;
                            };
                            /** @description True when an active shift of this application already existed and is returned unchanged. */
                            existing: boolean;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`, `universe_not_allowed`, `staff_inactive`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    recordShiftHeartbeat: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the API key's application and environment; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description Shift id (uuid, in any case) returned by start. Any other value names no shift (404).
                 * @example 0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b
                 */
                shiftId: string;
            };
            cookie?: never;
        };
        /** @description Optional body; send it as application/json. */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "recordedAt": "2026-03-11T12:05:00.000Z",
                 *       "serverId": "srv-eu-1"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Game-server time of the heartbeat; defaults to the server clock. Not before `startedAt` and at most 60 seconds ahead of the server clock (400).
                     */
                    recordedAt?: string;
                    /** @description When sent, must equal the shift's server (409 `server_mismatch`). */
                    serverId?: string;
                };
            };
        };
        responses: {
            /** @description The heartbeat was recorded. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "shift": {
                     *           "id": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b",
                     *           "status": "active",
                     *           "lastHeartbeatAt": "2026-03-11T12:05:00.000Z"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            shift: {
                                /**
                                 * Format: uuid
                                 * @description Shift id.
                                 */
                                id: string;
                                /** @enum {string} */
                                status: "active";
                                /**
                                 * Format: date-time
                                 * @description Latest game-server heartbeat time; it never moves backwards.
                                 */
                                lastHeartbeatAt: string;
                            };
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `shift_not_active`, `server_mismatch`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    stopShift: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the API key's application and environment; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description Shift id (uuid, in any case) returned by start. Any other value names no shift (404).
                 * @example 0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b
                 */
                shiftId: string;
            };
            cookie?: never;
        };
        /** @description Optional body; send it as application/json. */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "endedAt": "2026-03-11T13:30:15.000Z",
                 *       "reason": "player_left"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Game-server time the shift ended; defaults to the server clock. Not before `startedAt` and at most 60 seconds ahead of the server clock (400).
                     */
                    endedAt?: string;
                    /**
                     * @description Why the shift ended; default `manual`. `heartbeat_timeout` is server-set only.
                     * @enum {string}
                     */
                    reason?: "manual" | "player_left" | "server_shutdown";
                };
            };
        };
        responses: {
            /** @description The completed shift with its duration. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "shift": {
                     *           "id": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b",
                     *           "status": "completed",
                     *           "startedAt": "2026-03-11T12:00:00.000Z",
                     *           "endedAt": "2026-03-11T13:30:15.000Z",
                     *           "durationSeconds": 5415,
                     *           "minutes": 90,
                     *           "endReason": "player_left"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            shift: {
                                /**
                                 * Format: uuid
                                 * @description Shift id.
                                 */
                                id: string;
                                /** @enum {string} */
                                status: "completed";
                                /**
                                 * Format: date-time
                                 * @description Game-server start time.
                                 */
                                startedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Game-server end time.
                                 */
                                endedAt: string;
                                /** @description Whole seconds from `startedAt` to `endedAt`, rounded down. */
                                durationSeconds: number;
                                /** @description `durationSeconds` in whole minutes, rounded down. */
                                minutes: number;
                                /**
                                 * @description `manual`, `player_left` or `server_shutdown` as sent to stop; `heartbeat_timeout` is set by the server when no start or heartbeat was received for SHIFT_TIMEOUT_SECONDS (the shift then ends at its `lastHeartbeatAt`).
                                 * @enum {string}
                                 */
                                endReason: "manual" | "player_left" | "server_shutdown" | "heartbeat_timeout";
                            };
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `shift_not_active`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listActiveShifts: {
        parameters: {
            query?: {
                /**
                 * @description With a dashboard token: the environment read, `live` (default) or `test` (anything else is 400). With an API key the key's own environment is read and this parameter is ignored.
                 * @example live
                 */
                environment?: "live" | "test";
                /**
                 * @description Page size, an integer (plain decimal digits, optionally signed); default 50. Values outside 1..100 are clamped to it; anything that is not an integer is 400.
                 * @example 50
                 */
                limit?: number;
                /**
                 * @description Keyset cursor from `nextCursor`: `startedAt` of the last shift seen. Sent together with `cursorId`.
                 * @example 2026-03-11T12:00:00.000Z
                 */
                cursorStartedAt?: string;
                /**
                 * @description Keyset cursor from `nextCursor`: `id` of the last shift seen. Sent together with `cursorStartedAt`.
                 * @example 0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b
                 */
                cursorId?: string;
            };
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description With a dashboard token: the workspace read (a uuid), never authorization: the caller must be a member of it (403 `workspace_access_denied`). Required when the caller is a member of several workspaces (400), else their only workspace is read. Ignored with an API key.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of active shifts. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "shifts": [
                     *           {
                     *             "id": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b",
                     *             "status": "active",
                     *             "startedAt": "2026-03-11T12:00:00.000Z",
                     *             "lastHeartbeatAt": "2026-03-11T12:05:00.000Z",
                     *             "elapsedSeconds": 420,
                     *             "universeId": "42",
                     *             "placeId": "7",
                     *             "serverId": "srv-eu-1",
                     *             "staff": {
                     *               "id": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *               "displayName": "Alice",
                     *               "gameUserId": "1001"
                     *             }
                     *           }
                     *         ],
                     *         "nextCursor": {
                     *           "cursorStartedAt": "2026-03-11T12:00:00.000Z",
                     *           "cursorId": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            shifts: {
                                /**
                                 * Format: uuid
                                 * @description Shift id.
                                 */
                                id: string;
                                /** @enum {string} */
                                status: "active";
                                /**
                                 * Format: date-time
                                 * @description Game-server start time.
                                 */
                                startedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Latest game-server heartbeat time.
                                 */
                                lastHeartbeatAt: string;
                                /** @description Whole seconds from `startedAt` to the server clock now (0 for a start time slightly ahead). */
                                elapsedSeconds: number;
                                universeId: string;
                                placeId: string;
                                serverId: string;
                                staff: {
                                    /** Format: uuid */
                                    id: string;
                                    displayName: string;
                                    gameUserId: string;
                                };
                            }[];
                            /** @description Cursor of the next page; null on the last. */
                            nextCursor: {
                                /**
                                 * Format: date-time
                                 * @description Pass as `cursorStartedAt`.
                                 */
                                cursorStartedAt: string;
                                /**
                                 * Format: uuid
                                 * @description Pass as `cursorId`.
                                 */
                                cursorId: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`, `workspace_access_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getShift: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description Shift id (uuid, in any case) returned by start. Any other value names no shift (404).
                 * @example 0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b
                 */
                shiftId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shift, with the fields that apply to its status. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "shift": {
                     *           "id": "0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b",
                     *           "status": "completed",
                     *           "startedAt": "2026-03-11T12:00:00.000Z",
                     *           "lastHeartbeatAt": "2026-03-11T12:10:00.000Z",
                     *           "universeId": "42",
                     *           "placeId": "7",
                     *           "serverId": "srv-eu-1",
                     *           "staff": {
                     *             "id": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *             "displayName": "Alice",
                     *             "gameUserId": "1001"
                     *           },
                     *           "endedAt": "2026-03-11T12:10:00.000Z",
                     *           "durationSeconds": 600,
                     *           "minutes": 10,
                     *           "endReason": "heartbeat_timeout"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            shift: {
                                /**
                                 * Format: uuid
                                 * @description Shift id.
                                 */
                                id: string;
                                /**
                                 * @description `active` or `completed`.
                                 * @enum {string}
                                 */
                                status: "active" | "completed";
                                /**
                                 * Format: date-time
                                 * @description Game-server start time.
                                 */
                                startedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Latest game-server heartbeat time.
                                 */
                                lastHeartbeatAt: string;
                                /** @description While active: whole seconds from `startedAt` to the server clock now. */
                                elapsedSeconds?: number;
                                universeId: string;
                                placeId: string;
                                serverId: string;
                                staff: {
                                    /** Format: uuid */
                                    id: string;
                                    displayName: string;
                                    gameUserId: string;
                                };
                                /**
                                 * Format: date-time
                                 * @description Once completed: game-server end time.
                                 */
                                endedAt?: string;
                                /** @description Once completed: whole seconds. */
                                durationSeconds?: number;
                                /** @description Once completed: whole minutes. */
                                minutes?: number;
                                /**
                                 * @description `manual`, `player_left` or `server_shutdown` as sent to stop; `heartbeat_timeout` is set by the server when no start or heartbeat was received for SHIFT_TIMEOUT_SECONDS (the shift then ends at its `lastHeartbeatAt`).
                                 * @enum {string}
                                 */
                                endReason?: "manual" | "player_left" | "server_shutdown" | "heartbeat_timeout";
                            };
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    recordShiftHeartbeats: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the API key's application and environment; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Send it as application/json. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "serverId": "srv-eu-1",
                 *       "shiftIds": [
                 *         "0b5e7c1e-8f0a-4c7e-9a43-2f1d6c3b9e10",
                 *         "4d2c9a77-5b1e-4f3a-8c6d-0e9f8a7b6c5d"
                 *       ],
                 *       "recordedAt": "2026-11-24T18:30:00Z"
                 *     }
                 */
                "application/json": {
                    /** @description The game server sending the batch; compared with each shift's server (`server_mismatch`). */
                    serverId: string;
                    /** @description 1 to 200 distinct shift ids. Ids are compared as uuids, ignoring case: two spellings of one uuid are a duplicate (400). */
                    shiftIds: string[];
                    /**
                     * Format: date-time
                     * @description Game-server time of the heartbeats; defaults to the server clock. At most 60 seconds ahead of the server clock (400 for the whole batch); before a shift's `startedAt` it fails that shift alone (`validation_failed`).
                     */
                    recordedAt?: string;
                };
            };
        };
        responses: {
            /** @description A result for every listed shift, in request order. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "results": [
                     *           {
                     *             "shiftId": "0b5e7c1e-8f0a-4c7e-9a43-2f1d6c3b9e10",
                     *             "shift": {
                     *               "id": "0b5e7c1e-8f0a-4c7e-9a43-2f1d6c3b9e10",
                     *               "status": "active",
                     *               "lastHeartbeatAt": "2026-11-24T18:30:00.000Z"
                     *             }
                     *           },
                     *           {
                     *             "shiftId": "4d2c9a77-5b1e-4f3a-8c6d-0e9f8a7b6c5d",
                     *             "error": {
                     *               "code": "shift_not_active",
                     *               "message": "The shift is not active (it was stopped or timed out)."
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description One entry per listed shift, in request order. */
                            results: ({
                                /** @description The id as sent. */
                                shiftId: string;
                                shift: {
                                    /**
                                     * Format: uuid
                                     * @description Shift id.
                                     */
                                    id: string;
                                    /** @enum {string} */
                                    status: "active";
                                    /**
                                     * Format: date-time
                                     * @description Latest game-server heartbeat time; it never moves backwards.
                                     */
                                    lastHeartbeatAt: string;
                                };
                            } | {
                                /** @description The id as sent. */
                                shiftId: string;
                                error: {
                                    /**
                                     * @description Why the heartbeat did not apply to this shift.
                                     * @enum {string}
                                     */
                                    code: "not_found" | "shift_not_active" | "server_mismatch" | "validation_failed";
                                    message: string;
                                };
                            })[];
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    stopServerShifts: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the API key's application and environment; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description The game server whose active shifts are stopped (1 to 128 characters).
                 * @example srv-eu-1
                 */
                serverId: string;
            };
            cookie?: never;
        };
        /** @description Optional body; when sent, send it as application/json. */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "endedAt": "2026-11-24T18:31:00Z",
                 *       "reason": "server_shutdown"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Game-server time the server stopped; defaults to the server clock; at most 60 seconds ahead of it (400). A shift started after it ends at its own `startedAt`.
                     */
                    endedAt?: string;
                    /**
                     * @description Why the shifts ended; default `server_shutdown`.
                     * @enum {string}
                     */
                    reason?: "manual" | "player_left" | "server_shutdown";
                };
            };
        };
        responses: {
            /** @description The shifts that were active on the server, now completed (an empty list when none was). */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "shifts": [
                     *           {
                     *             "id": "0b5e7c1e-8f0a-4c7e-9a43-2f1d6c3b9e10",
                     *             "status": "completed",
                     *             "startedAt": "2026-11-24T17:00:00.000Z",
                     *             "endedAt": "2026-11-24T18:31:00.000Z",
                     *             "durationSeconds": 5460,
                     *             "minutes": 91,
                     *             "endReason": "server_shutdown"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Every shift this call stopped, as the single stop returns it, by `startedAt` then `id`. */
                            shifts: {
                                /**
                                 * Format: uuid
                                 * @description Shift id.
                                 */
                                id: string;
                                /** @enum {string} */
                                status: "completed";
                                /**
                                 * Format: date-time
                                 * @description Game-server start time.
                                 */
                                startedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Game-server end time.
                                 */
                                endedAt: string;
                                /** @description Whole seconds from `startedAt` to `endedAt`, rounded down. */
                                durationSeconds: number;
                                /** @description `durationSeconds` in whole minutes, rounded down. */
                                minutes: number;
                                /**
                                 * @description `manual`, `player_left` or `server_shutdown` as sent to stop; `heartbeat_timeout` is set by the server when no start or heartbeat was received for SHIFT_TIMEOUT_SECONDS (the shift then ends at its `lastHeartbeatAt`).
                                 * @enum {string}
                                 */
                                endReason: "manual" | "player_left" | "server_shutdown" | "heartbeat_timeout";
                            }[];
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    acceptSubmission: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the dashboard user; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only submissions of that workspace are then visible. Without it, submissions of every workspace the caller is a member of are visible.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Submission id (uuid, in any case). A value that is not a uuid names no submission and is answered 404 `not_found`, like any submission the caller cannot see.
                 * @example 4b3a2918-0f7e-4d6c-8b5a-493827160f5e
                 */
                submissionId: string;
            };
            cookie?: never;
        };
        /** @description Optional. Unknown properties are rejected (400). */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "reviewNote": "Strong answers; welcome aboard.",
                 *       "createStaffProfile": true
                 *     }
                 */
                "application/json": {
                    /** @description Free-text note for this decision, at most 5000 characters. It is recorded in the command and in the emitted event; it does not change the submission's `reviewerNotes` (use PATCH …/review for those). */
                    reviewNote?: string;
                    /** @description Create (or link) a staff profile for the applicant. Applies only when the caller has `staff.create`; otherwise it is ignored and the workspace setting `createStaffProfileOnAccept` decides. */
                    createStaffProfile?: boolean;
                };
            };
        };
        responses: {
            /** @description The submission was accepted. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "submissionId": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e",
                     *         "status": "accepted",
                     *         "acceptedAt": "2026-03-11T12:00:00.000Z",
                     *         "staffProfileCreated": true,
                     *         "staffProfileId": "6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b",
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            submissionId: string;
                            /** @enum {string} */
                            status: "accepted";
                            /** Format: date-time */
                            acceptedAt: string;
                            /** @description True when this accept created a new staff profile. */
                            staffProfileCreated: boolean;
                            /** @description The created or linked staff profile; null when no profile was requested. */
                            staffProfileId: string | null;
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `invalid_state_transition`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `submission_finalized`, `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    markSubmissionUnderReview: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the dashboard user; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only submissions of that workspace are then visible. Without it, submissions of every workspace the caller is a member of are visible.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Submission id (uuid, in any case). A value that is not a uuid names no submission and is answered 404 `not_found`, like any submission the caller cannot see.
                 * @example 4b3a2918-0f7e-4d6c-8b5a-493827160f5e
                 */
                submissionId: string;
            };
            cookie?: never;
        };
        /** @description Optional. Unknown properties are rejected (400). */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "reviewNote": "Checking references first."
                 *     }
                 */
                "application/json": {
                    /** @description Free-text note for this decision, at most 5000 characters. It is recorded in the command and in the emitted event; it does not change the submission's `reviewerNotes` (use PATCH …/review for those). */
                    reviewNote?: string;
                };
            };
        };
        responses: {
            /** @description The submission is under review. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "submissionId": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e",
                     *         "status": "under_review",
                     *         "reviewedAt": "2026-03-11T12:00:00.000Z",
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            submissionId: string;
                            /** @enum {string} */
                            status: "under_review";
                            /** Format: date-time */
                            reviewedAt: string;
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `invalid_state_transition`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `submission_finalized`, `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rejectSubmission: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the dashboard user; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only submissions of that workspace are then visible. Without it, submissions of every workspace the caller is a member of are visible.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Submission id (uuid, in any case). A value that is not a uuid names no submission and is answered 404 `not_found`, like any submission the caller cannot see.
                 * @example 4b3a2918-0f7e-4d6c-8b5a-493827160f5e
                 */
                submissionId: string;
            };
            cookie?: never;
        };
        /** @description Optional. Unknown properties are rejected (400). */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "reviewNote": "Checking references first."
                 *     }
                 */
                "application/json": {
                    /** @description Free-text note for this decision, at most 5000 characters. It is recorded in the command and in the emitted event; it does not change the submission's `reviewerNotes` (use PATCH …/review for those). */
                    reviewNote?: string;
                };
            };
        };
        responses: {
            /** @description The submission was rejected. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "submissionId": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e",
                     *         "status": "rejected",
                     *         "rejectedAt": "2026-03-11T12:00:00.000Z",
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            submissionId: string;
                            /** @enum {string} */
                            status: "rejected";
                            /** Format: date-time */
                            rejectedAt: string;
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `invalid_state_transition`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `submission_finalized`, `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateSubmissionReview: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the dashboard user; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`); only submissions of that workspace are then visible. Without it, submissions of every workspace the caller is a member of are visible.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Submission id (uuid, in any case). A value that is not a uuid names no submission and is answered 404 `not_found`, like any submission the caller cannot see.
                 * @example 4b3a2918-0f7e-4d6c-8b5a-493827160f5e
                 */
                submissionId: string;
            };
            cookie?: never;
        };
        /** @description At least one of `score` and `reviewerNotes`. Omitted fields are left unchanged. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "score": 87.5,
                 *       "reviewerNotes": "Clear, friendly answers."
                 *     }
                 */
                "application/json": {
                    /** @description Reviewer score, 0 to 100; null clears it. */
                    score?: number | null;
                    /** @description Internal notes, at most 5000 characters; null or an empty string clears them. */
                    reviewerNotes?: string | null;
                };
            };
        };
        responses: {
            /** @description The review fields were updated. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "submissionId": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e",
                     *         "status": "under_review",
                     *         "score": 87.5,
                     *         "scoreUpdated": true,
                     *         "reviewerNotesUpdated": true,
                     *         "reviewedAt": "2026-03-11T12:00:00.000Z",
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            submissionId: string;
                            /** @description Unchanged. */
                            status: "submitted" | "under_review";
                            /** @description The score after this update. */
                            score: number | null;
                            /** @description True when the patch carried `score`. */
                            scoreUpdated: boolean;
                            /** @description True when the patch carried `reviewerNotes`. */
                            reviewerNotesUpdated: boolean;
                            /** @description Always the time of this update. */
                            reviewedAt: string | null;
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The emitted event.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `invalid_state_transition`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `submission_finalized`, `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSubmissions: {
        parameters: {
            query?: {
                /**
                 * @description One status or a comma-separated list of `submitted`, `under_review`, `accepted`, `rejected`; default `submitted,under_review`.
                 * @example submitted,under_review
                 */
                status?: string;
                /**
                 * @description Only submissions to this form (a uuid; one that names no form of the workspace gives an empty page).
                 * @example 2c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f
                 */
                formId?: string;
                /**
                 * @description `live` (default) or `test`: the environment of the key that sent the submissions.
                 * @example live
                 */
                environment?: "live" | "test";
                /**
                 * @description Page size, 1..100 (default 25); outside it, or not an integer, 400.
                 * @example 25
                 */
                limit?: number;
                /**
                 * @description Keyset cursor from `nextCursor`: `createdAt` of the last submission seen. Sent with `cursorId`.
                 * @example 2026-03-10T09:30:00.000Z
                 */
                cursorCreatedAt?: string;
                /**
                 * @description Keyset cursor from `nextCursor`: `id` of the last submission seen. Sent with `cursorCreatedAt`.
                 * @example 4b3a2918-0f7e-4d6c-8b5a-493827160f5e
                 */
                cursorId?: string;
            };
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`) and hold `applications.review` or `applications.decide` there (else 403 `permission_denied`); only that workspace is then read. Without it, every workspace where the caller holds one of those permissions is read.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the queue. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "submissions": [
                     *           {
                     *             "id": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e",
                     *             "formId": "2c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f",
                     *             "formName": "Moderator application",
                     *             "status": "under_review",
                     *             "environment": "live",
                     *             "applicant": {
                     *               "gameUserId": "261",
                     *               "gameUsername": "builderman",
                     *               "displayName": "Builder",
                     *               "chatUserId": null
                     *             },
                     *             "score": 87.5,
                     *             "createdAt": "2026-03-10T09:30:00.000Z",
                     *             "reviewedAt": "2026-03-11T12:00:00.000Z",
                     *             "decidedAt": null
                     *           }
                     *         ],
                     *         "nextCursor": {
                     *           "cursorCreatedAt": "2026-03-10T09:30:00.000Z",
                     *           "cursorId": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e"
                     *         }
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            submissions: {
                                /** Format: uuid */
                                id: string;
                                /** @description Null for a submission without a form. */
                                formId: string | null;
                                /** @description Null for a submission without a form. */
                                formName: string | null;
                                status: "submitted" | "under_review" | "accepted" | "rejected";
                                /** @description The environment of the key that sent it; provisioned submissions are `live`. */
                                environment: "live" | "test";
                                applicant: {
                                    /** @description The applicant's game user id: a string of digits when it came through the intake, as provisioned otherwise; null once their data was erased. */
                                    gameUserId: string | null;
                                    gameUsername: string | null;
                                    displayName: string | null;
                                    chatUserId: string | null;
                                };
                                score: number | null;
                                /** Format: date-time */
                                createdAt: string;
                                reviewedAt: string | null;
                                /** @description When it was accepted or rejected; else null. */
                                decidedAt: string | null;
                            }[];
                            /** @description Cursor of the next page; null on the last. */
                            nextCursor: {
                                /**
                                 * Format: date-time
                                 * @description Pass as `cursorCreatedAt`.
                                 */
                                cursorCreatedAt: string;
                                /**
                                 * Format: uuid
                                 * @description Pass as `cursorId`.
                                 */
                                cursorId: string;
                            } | null;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSubmission: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`) and hold `applications.review` or `applications.decide` there (else 403 `permission_denied`); only that workspace is then read. Without it, every workspace where the caller holds one of those permissions is read.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path: {
                /**
                 * @description Submission id (uuid, in any case). A value that is not a uuid names no submission and is answered 404 `not_found`, like any submission the caller cannot see.
                 * @example 4b3a2918-0f7e-4d6c-8b5a-493827160f5e
                 */
                submissionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The submission with its answers and history. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "submission": {
                     *           "id": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e",
                     *           "formId": "2c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f",
                     *           "formName": "Moderator application",
                     *           "status": "under_review",
                     *           "environment": "live",
                     *           "applicant": {
                     *             "gameUserId": "261",
                     *             "gameUsername": "builderman",
                     *             "displayName": "Builder",
                     *             "chatUserId": null
                     *           },
                     *           "score": 87.5,
                     *           "createdAt": "2026-03-10T09:30:00.000Z",
                     *           "reviewedAt": "2026-03-11T12:00:00.000Z",
                     *           "decidedAt": null,
                     *           "reviewerNotes": "Clear, friendly answers.",
                     *           "staffProfileId": null,
                     *           "answers": [
                     *             {
                     *               "questionId": "why",
                     *               "label": "Why do you want to join?",
                     *               "type": "long_text",
                     *               "value": "I like helping people."
                     *             },
                     *             {
                     *               "questionId": "age",
                     *               "label": "How old are you?",
                     *               "type": "number",
                     *               "value": 19
                     *             },
                     *             {
                     *               "questionId": "tz",
                     *               "label": "Time zone",
                     *               "type": "choice",
                     *               "value": "EU"
                     *             }
                     *           ],
                     *           "history": [
                     *             {
                     *               "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *               "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
                     *               "type": "submitted",
                     *               "actor": {
                     *                 "type": "api_key",
                     *                 "id": "3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b",
                     *                 "name": "Main game"
                     *               },
                     *               "at": "2026-03-10T09:30:00.000Z",
                     *               "reviewNote": null
                     *             },
                     *             {
                     *               "commandId": "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a",
                     *               "eventId": "0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d",
                     *               "type": "marked_under_review",
                     *               "actor": {
                     *                 "type": "dashboard_user",
                     *                 "id": "user_2f9Kq8LmX4",
                     *                 "name": null
                     *               },
                     *               "at": "2026-03-11T12:00:00.000Z",
                     *               "reviewNote": "Checking references first."
                     *             }
                     *           ]
                     *         }
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            submission: {
                                /** Format: uuid */
                                id: string;
                                /** @description Null for a submission without a form. */
                                formId: string | null;
                                /** @description Null for a submission without a form. */
                                formName: string | null;
                                status: "submitted" | "under_review" | "accepted" | "rejected";
                                /** @description The environment of the key that sent it; provisioned submissions are `live`. */
                                environment: "live" | "test";
                                applicant: {
                                    /** @description The applicant's game user id: a string of digits when it came through the intake, as provisioned otherwise; null once their data was erased. */
                                    gameUserId: string | null;
                                    gameUsername: string | null;
                                    displayName: string | null;
                                    chatUserId: string | null;
                                };
                                score: number | null;
                                /** Format: date-time */
                                createdAt: string;
                                reviewedAt: string | null;
                                /** @description When it was accepted or rejected; else null. */
                                decidedAt: string | null;
                                reviewerNotes: string | null;
                                /** @description The staff profile an accept created or linked; else null. */
                                staffProfileId: string | null;
                                /** @description In the form's question order as it was when submitted; for a submission without a form, its provisioned answers as short-text answers labelled with their key. */
                                answers: {
                                    questionId: string;
                                    /** @description The question's label when the answer was given. */
                                    label: string;
                                    type: "short_text" | "long_text" | "number" | "boolean" | "choice" | "multi_choice";
                                    value: string | number | boolean | string[] | null;
                                }[];
                                /** @description One entry per recorded command, oldest first. */
                                history: {
                                    /** Format: uuid */
                                    commandId: string;
                                    /** Format: uuid */
                                    eventId: string;
                                    type: "submitted" | "marked_under_review" | "review_updated" | "accepted" | "rejected";
                                    actor: {
                                        type: "dashboard_user" | "api_key";
                                        /** @description The dashboard user's id, or the API key's application id. */
                                        id: string;
                                        /** @description The API key's application's name; null for a dashboard user, whom the gateway knows by id only. */
                                        name: string | null;
                                    };
                                    /** Format: date-time */
                                    at: string;
                                    /** @description Null when none was sent. */
                                    reviewNote: string | null;
                                }[];
                            };
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getApplicationStats: {
        parameters: {
            query?: {
                /**
                 * @description `live` (default) or `test`: the environment of the key that sent the submissions.
                 * @example live
                 */
                environment?: "live" | "test";
            };
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
                /**
                 * @description Optional workspace selector (uuid), never authorization: the caller must be a member of it (else 403 `workspace_access_denied`) and hold `applications.review` or `applications.decide` there (else 403 `permission_denied`); only that workspace is then read. Without it, every workspace where the caller holds one of those permissions is read.
                 * @example 7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918
                 */
                "x-service-workspace-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Submissions by form and status. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "forms": [
                     *           {
                     *             "formId": "2c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f",
                     *             "formName": "Moderator application",
                     *             "submitted": 12,
                     *             "underReview": 3,
                     *             "accepted": 40,
                     *             "rejected": 17
                     *           },
                     *           {
                     *             "formId": "8b7a6f5e-4d3c-4b2a-9f0e-1d2c3b4a5f6e",
                     *             "formName": "Trainer application",
                     *             "submitted": 0,
                     *             "underReview": 0,
                     *             "accepted": 0,
                     *             "rejected": 0
                     *           },
                     *           {
                     *             "formId": null,
                     *             "formName": null,
                     *             "submitted": 1,
                     *             "underReview": 0,
                     *             "accepted": 5,
                     *             "rejected": 2
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            forms: {
                                /** @description Null: submissions without a form. */
                                formId: string | null;
                                formName: string | null;
                                submitted: number;
                                underReview: number;
                                accepted: number;
                                rejected: number;
                            }[];
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`, `permission_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listApplicationForms: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every form of the key's workspace, open and closed, ordered by name then id. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "forms": [
                     *           {
                     *             "id": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *             "name": "Moderator application",
                     *             "slug": "moderator",
                     *             "status": "open",
                     *             "description": "Help keep the community friendly.",
                     *             "departmentId": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                     *             "cooldownDays": 14,
                     *             "questions": [
                     *               {
                     *                 "id": "why",
                     *                 "label": "Why do you want to join?",
                     *                 "type": "long_text",
                     *                 "required": true,
                     *                 "maxLength": 2000,
                     *                 "min": null,
                     *                 "max": null,
                     *                 "options": null
                     *               },
                     *               {
                     *                 "id": "age",
                     *                 "label": "How old are you?",
                     *                 "type": "number",
                     *                 "required": true,
                     *                 "maxLength": null,
                     *                 "min": 13,
                     *                 "max": 99,
                     *                 "options": null
                     *               },
                     *               {
                     *                 "id": "tz",
                     *                 "label": "Time zone",
                     *                 "type": "choice",
                     *                 "required": false,
                     *                 "maxLength": null,
                     *                 "min": null,
                     *                 "max": null,
                     *                 "options": [
                     *                   "EU",
                     *                   "NA",
                     *                   "Asia"
                     *                 ]
                     *               }
                     *             ]
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            forms: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                slug: string;
                                /** @description A closed form takes no submissions (409 `form_closed`). */
                                status: "open" | "closed";
                                /** @description Null when none was given. */
                                description: string | null;
                                /** @description Null when none was given. */
                                departmentId: string | null;
                                /** @description How long after a rejection the same applicant may apply to this form again (0: at once). */
                                cooldownDays: number;
                                /** @description In the order the form asks them. */
                                questions: {
                                    /** @description Unique in the form; the key of its answer. */
                                    id: string;
                                    label: string;
                                    /** @enum {string} */
                                    type: "short_text" | "long_text" | "number" | "boolean" | "choice" | "multi_choice";
                                    /** @description Default false. A required `boolean` answered `false` is answered. */
                                    required: boolean;
                                    /** @description Text types: the longest answer in characters after trimming (default 200 for `short_text`, 5000 for `long_text`); else null. */
                                    maxLength: number | null;
                                    /** @description `number`: the smallest answer allowed; null when none. */
                                    min: number | null;
                                    /** @description `number`: the largest answer allowed; null when none. */
                                    max: number | null;
                                    /** @description `choice` and `multi_choice`: the options offered; else null. */
                                    options: string[] | null;
                                }[];
                            }[];
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getApplicationForm: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description Form id (uuid, in any case). A value that is not a uuid, or a form of another workspace, names no form: 404.
                 * @example 3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a
                 */
                formId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The form. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "form": {
                     *           "id": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *           "name": "Moderator application",
                     *           "slug": "moderator",
                     *           "status": "open",
                     *           "description": "Help keep the community friendly.",
                     *           "departmentId": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                     *           "cooldownDays": 14,
                     *           "questions": [
                     *             {
                     *               "id": "why",
                     *               "label": "Why do you want to join?",
                     *               "type": "long_text",
                     *               "required": true,
                     *               "maxLength": 2000,
                     *               "min": null,
                     *               "max": null,
                     *               "options": null
                     *             },
                     *             {
                     *               "id": "age",
                     *               "label": "How old are you?",
                     *               "type": "number",
                     *               "required": true,
                     *               "maxLength": null,
                     *               "min": 13,
                     *               "max": 99,
                     *               "options": null
                     *             },
                     *             {
                     *               "id": "tz",
                     *               "label": "Time zone",
                     *               "type": "choice",
                     *               "required": false,
                     *               "maxLength": null,
                     *               "min": null,
                     *               "max": null,
                     *               "options": [
                     *                 "EU",
                     *                 "NA",
                     *                 "Asia"
                     *               ]
                     *             }
                     *           ]
                     *         }
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            form: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                slug: string;
                                /** @description A closed form takes no submissions (409 `form_closed`). */
                                status: "open" | "closed";
                                /** @description Null when none was given. */
                                description: string | null;
                                /** @description Null when none was given. */
                                departmentId: string | null;
                                /** @description How long after a rejection the same applicant may apply to this form again (0: at once). */
                                cooldownDays: number;
                                /** @description In the order the form asks them. */
                                questions: {
                                    /** @description Unique in the form; the key of its answer. */
                                    id: string;
                                    label: string;
                                    /** @enum {string} */
                                    type: "short_text" | "long_text" | "number" | "boolean" | "choice" | "multi_choice";
                                    /** @description Default false. A required `boolean` answered `false` is answered. */
                                    required: boolean;
                                    /** @description Text types: the longest answer in characters after trimming (default 200 for `short_text`, 5000 for `long_text`); else null. */
                                    maxLength: number | null;
                                    /** @description `number`: the smallest answer allowed; null when none. */
                                    min: number | null;
                                    /** @description `number`: the largest answer allowed; null when none. */
                                    max: number | null;
                                    /** @description `choice` and `multi_choice`: the options offered; else null. */
                                    options: string[] | null;
                                }[];
                            };
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    submitApplication: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required on every write. 1 to 255 printable ASCII characters, scoped to the API key's application and environment; a random UUID per logical operation is a good choice, reused for its retries. Missing or empty: 400 `idempotency_key_required`; longer or with other characters: 400 `invalid_idempotency_key`. The same key with the same request replays the stored status and body (`Idempotent-Replayed: true`) for 24 hours; with a different request: 422 `idempotency_key_reused`; while the first request is in flight: 409 `idempotency_request_in_progress`. 5xx results are not kept, so a retry runs again.
                 * @example 5f0c6a2e-8d1b-4a57-9a0e-2d8f3c1b7e64
                 */
                "idempotency-key": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description Form id (uuid, in any case). A value that is not a uuid, or a form of another workspace, names no form: 404.
                 * @example 3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a
                 */
                formId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "applicant": {
                 *         "gameUserId": 2001,
                 *         "gameUsername": "bob",
                 *         "displayName": "Bob",
                 *         "chatUserId": "7771"
                 *       },
                 *       "answers": {
                 *         "why": "I enjoy helping new players find their way.",
                 *         "age": 19,
                 *         "tz": "EU"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description Who applies. Fields left out are null in answers. */
                    applicant: {
                        /** @description The applicant's game user id: a string of 1 to 32 digits, or a number (turned into one). */
                        gameUserId: string | number;
                        gameUsername?: string;
                        displayName?: string;
                        /**
                         * @description The applicant's chat user id, 1 to 32 digits.
                         * @example 7771
                         */
                        chatUserId?: string;
                    };
                    /** @description Answers by question id: a string for `short_text`, `long_text` and `choice`, a number for `number`, true or false for `boolean`, a list of distinct strings for `multi_choice`. Text is trimmed; an empty string (or list, or null) is no answer. */
                    answers: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The submission, `submitted`, in the key's environment. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "submission": {
                     *           "id": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e",
                     *           "formId": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *           "formName": "Moderator application",
                     *           "status": "submitted",
                     *           "environment": "live",
                     *           "applicant": {
                     *             "gameUserId": "2001",
                     *             "gameUsername": "bob",
                     *             "displayName": "Bob",
                     *             "chatUserId": "7771"
                     *           },
                     *           "score": null,
                     *           "createdAt": "2026-03-11T12:00:00.000Z",
                     *           "reviewedAt": null,
                     *           "decidedAt": null
                     *         },
                     *         "commandId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "eventId": "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            submission: {
                                /** Format: uuid */
                                id: string;
                                /** @description Null for a submission without a form. */
                                formId: string | null;
                                /** @description Null for a submission without a form. */
                                formName: string | null;
                                status: "submitted" | "under_review" | "accepted" | "rejected";
                                /** @description The environment of the key that sent it; provisioned submissions are `live`. */
                                environment: "live" | "test";
                                applicant: {
                                    /** @description The applicant's game user id: a string of digits when it came through the intake, as provisioned otherwise; null once their data was erased. */
                                    gameUserId: string | null;
                                    gameUsername: string | null;
                                    displayName: string | null;
                                    chatUserId: string | null;
                                };
                                score: number | null;
                                /** Format: date-time */
                                createdAt: string;
                                reviewedAt: string | null;
                                /** @description When it was accepted or rejected; else null. */
                                decidedAt: string | null;
                            };
                            /**
                             * Format: uuid
                             * @description The recorded command.
                             */
                            commandId: string;
                            /**
                             * Format: uuid
                             * @description The event `application.submission.submitted`.
                             */
                            eventId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`, `idempotency_key_required`, `invalid_idempotency_key`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state or with a request in flight. Codes: `form_closed`, `submission_pending`, `application_cooldown`, `idempotency_request_in_progress`. */
            409: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request is well formed but cannot be applied. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Present (`true`) when this is the stored result of an earlier request with the same Idempotency-Key. */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listApplicantSubmissions: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path: {
                /**
                 * @description The applicant's game user id, 1 to 32 digits (else 400).
                 * @example 2001
                 */
                gameUserId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The applicant's last 20 submissions in the key's environment, newest first. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "submissions": [
                     *           {
                     *             "id": "4b3a2918-0f7e-4d6c-8b5a-493827160f5e",
                     *             "formId": "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
                     *             "formName": "Moderator application",
                     *             "status": "rejected",
                     *             "createdAt": "2026-02-01T09:30:00.000Z",
                     *             "decidedAt": "2026-02-03T18:00:00.000Z"
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            submissions: {
                                /** Format: uuid */
                                id: string;
                                formId: string | null;
                                formName: string | null;
                                status: "submitted" | "under_review" | "accepted" | "rejected";
                                /** Format: date-time */
                                createdAt: string;
                                /** @description When it was accepted or rejected; else null. */
                                decidedAt: string | null;
                            }[];
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `feature_disabled`, `insufficient_scope`, `application_not_approved`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createConsoleSignInLink: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Required (400). Must equal the workspace's connected guild; a consistency check only.
                 * @example 1234
                 */
                "x-chat-guild-id": string;
                /**
                 * @description Required (400). Chat user id of the invoking staff member.
                 * @example 5551
                 */
                "x-acting-chat-user-id": string;
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Optional: no body, or `{}`. Unknown properties are rejected (400). */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description A new one-time sign-in link for the acting chat user. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "url": "https://gateway.example.com/console/sign-in#code=7Hq2LmX9cTz4Rb8Kw1NpQs3VxY5Za6Bc8De0Fg2Hi4J",
                     *         "expiresAt": "2026-03-11T12:10:00.000Z"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description PUBLIC_BASE_URL (else the address the gateway is reached at) + `/console/sign-in#code=<code>`: the code, 43 random base62 characters, travels in the fragment, which browsers never send to a server. Send it to the member privately; whoever holds it can sign in as them until it is used or expires. */
                            url: string;
                            /**
                             * Format: date-time
                             * @description When the link stops working: 10 minutes after it was made.
                             */
                            expiresAt: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `insufficient_scope`, `application_not_approved`, `guild_mismatch`, `chat_not_connected`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createConsoleSession: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "code": "7Hq2LmX9cTz4Rb8Kw1NpQs3VxY5Za6Bc8De0Fg2Hi4J"
                 *     }
                 */
                "application/json": {
                    /** @description The code of a sign-in link (what follows `#code=` in its address). */
                    code: string;
                };
            };
        };
        responses: {
            /** @description A dashboard token for the member the code was made for. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJ3b3Jrc3BhY2UtZ2F0ZXdheSJ9.c2lnbmF0dXJl",
                     *         "expiresAt": "2026-03-11T20:00:00.000Z",
                     *         "userId": "user-reviewer"
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description A dashboard token (JWT, HS256, signed with a key only the gateway holds, `sub` = `userId`), valid 8 hours: send it as `Authorization: Bearer <token>` to every dashboard operation. */
                            token: string;
                            /**
                             * Format: date-time
                             * @description When the token expires (8 hours after the exchange).
                             */
                            expiresAt: string;
                            /** @description The member the link was made for. */
                            userId: string;
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`, `invalid_json`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getConsoleMe: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional, 1 to 128 visible ASCII characters (else 400 `validation_failed`); echoed as `meta.correlationId` where the body has `meta` (else the request id is used) and written to the request log.
                 * @example discord-interaction-1187
                 */
                "x-correlation-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller and their workspaces. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "userId": "user-reviewer",
                     *         "workspaces": [
                     *           {
                     *             "id": "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918",
                     *             "name": "Acme",
                     *             "timezone": "Europe/Berlin",
                     *             "createStaffProfileOnAccept": true,
                     *             "permissions": [
                     *               "applications.review",
                     *               "applications.decide",
                     *               "staff.create",
                     *               "notices.decide",
                     *               "staff.rank"
                     *             ],
                     *             "ranks": [
                     *               {
                     *                 "name": "Trainee",
                     *                 "order": 10,
                     *                 "assignable": true
                     *               },
                     *               {
                     *                 "name": "Moderator",
                     *                 "order": 20,
                     *                 "assignable": true
                     *               },
                     *               {
                     *                 "name": "Senior Moderator",
                     *                 "order": 30,
                     *                 "assignable": true
                     *               },
                     *               {
                     *                 "name": "Owner",
                     *                 "order": 255,
                     *                 "assignable": false
                     *               }
                     *             ]
                     *           },
                     *           {
                     *             "id": "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
                     *             "name": "Beta",
                     *             "timezone": "UTC",
                     *             "createStaffProfileOnAccept": false,
                     *             "permissions": [
                     *               "applications.review"
                     *             ],
                     *             "ranks": []
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "requestId": "req_7Hq2LmX9cTz4Rb8Kw1Np",
                     *         "correlationId": "req_7Hq2LmX9cTz4Rb8Kw1Np"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description The dashboard token's subject. */
                            userId: string;
                            /** @description The workspaces the caller is a member of, ordered by name then id; empty for none. */
                            workspaces: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                /** @description The workspace's IANA time zone, in which the console shows times. */
                                timezone: string;
                                /** @description The workspace setting: whether accepting an application creates a staff profile when the acceptance does not say (the console's "Create staff profile" box starts from it). */
                                createStaffProfileOnAccept: boolean;
                                /** @description What the caller may do in this workspace. */
                                permissions: ("applications.review" | "applications.decide" | "staff.create" | "notices.decide" | "staff.rank")[];
                                /** @description The workspace's ranks (the provisioning document's `ranks`), by `order`: the names a staff member's rank may take, for a page that changes ranks (`POST /v1/staff/{staffId}/rank`, `staff.rank`). Empty when the workspace has none (any name is then a rank). Role ids and the group's settings are never shown. */
                                ranks: {
                                    /** @description The rank's name, as staff `rank` values carry it. */
                                    name: string;
                                    /** @description The group role's rank number, unique in the workspace. */
                                    order: number;
                                    /** @description Whether the API may give and take it: `false` for a rank such as an owner's (403 `rank_not_assignable`). */
                                    assignable: boolean;
                                }[];
                            }[];
                        };
                        meta: {
                            /** @description Request id of the response that carries it (on a replay, the original). */
                            requestId: string;
                            /** @description X-Correlation-Id when sent, else the request id. */
                            correlationId: string;
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The credential may not do this. Codes: `workspace_access_denied`. */
            403: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many requests for this API key or user; see Retry-After and RateLimit. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description IETF RateLimit field: `"default";r=<remaining>;t=<seconds until the window resets>`. */
                    ratelimit?: string;
                    /** @description IETF RateLimit-Policy field: `"default";q=<requests>;w=<window seconds>`, per API key or user. */
                    "ratelimit-policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    handleDiscordInteraction: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Ed25519 signature (hex) of `X-Signature-Timestamp` + the raw body, by the application's key.
                 * @example 9e3f0c00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
                 */
                "x-signature-ed25519"?: string;
                /**
                 * @description Unix seconds; more than 5 minutes from the server clock is refused (401).
                 * @example 1773230400
                 */
                "x-signature-timestamp"?: string;
            };
            path: {
                /**
                 * @description The Discord application's id, as in the provisioning document's `discord.applicationId`.
                 * @example 1234567890123456789
                 */
                applicationId: string;
            };
            cookie?: never;
        };
        /** @description A Discord interaction, as Discord sends it. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "1400000000000000001",
                 *       "type": 2,
                 *       "application_id": "1234567890123456789",
                 *       "guild_id": "900001",
                 *       "member": {
                 *         "user": {
                 *           "id": "5551",
                 *           "username": "alice"
                 *         }
                 *       },
                 *       "data": {
                 *         "name": "activity",
                 *         "type": 1
                 *       },
                 *       "token": "interaction-token",
                 *       "version": 1
                 *     }
                 */
                "application/json": {
                    /** @description The interaction's id: the idempotency key of a write made from it. */
                    id: string;
                    /**
                     * @description 1 PING, 2 a slash command, 3 a button press.
                     * @enum {integer}
                     */
                    type: 1 | 2 | 3;
                    application_id?: string;
                    /** @description The Discord server: it picks the workspace (`chat.guildId`). */
                    guild_id?: string;
                    member?: {
                        user: {
                            /** @description The acting user, matched to a `chatUserId`. */
                            id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description The command and its options, or the button's `custom_id`. */
                    data?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A Discord interaction response. */
            200: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description 1 PONG (to a PING), 4 a message (to a command, or a refusal), 7 the pressed message updated.
                         * @enum {integer}
                         */
                        type: 1 | 4 | 7;
                        data?: {
                            content: string;
                            /** @description 64: ephemeral, seen only by the person who used the command. */
                            flags?: number;
                            /** @description Always `{ "parse": [] }`: nothing in a message pings anyone. */
                            allowed_mentions: {
                                parse: string[];
                            };
                            /** @description Action rows of "Approve" and "Deny" buttons (`/timeoff pending`). */
                            components?: unknown[];
                        };
                    };
                };
            };
            /** @description Invalid request. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or expired credential. Codes: `unauthenticated`. */
            401: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description RFC 6750 challenge: `Bearer realm="workspace-gateway"`, plus `error="invalid_token"` when a bearer credential was sent and rejected. */
                    "www-authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The resource does not exist or is not visible to this credential. Codes: `not_found`. */
            404: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 64 KiB. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body is not application/json. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not ready to serve, or the database is unreachable (a restart, a failover): retry after `Retry-After` seconds, a write with the same `Idempotency-Key`. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description Gateway request id of this response (`req_` + base62); equals `error.requestId` on errors, except on an idempotent replay, whose stored body keeps the first request's id. */
                    "x-request-id": string;
                    /** @description Seconds to wait before retrying. */
                    "retry-after": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    applicationSubmissionSubmittedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "application.submission.submitted";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        submission: {
                            /** Format: uuid */
                            id: string;
                            /** @description Null for a submission without a form. */
                            formId: string | null;
                            /** @description Null for a submission without a form. */
                            formName: string | null;
                            status: "submitted" | "under_review" | "accepted" | "rejected";
                            /** @description The environment of the key that sent it; provisioned submissions are `live`. */
                            environment: "live" | "test";
                            applicant: {
                                /** @description The applicant's game user id: a string of digits when it came through the intake, as provisioned otherwise; null once their data was erased. */
                                gameUserId: string | null;
                                gameUsername: string | null;
                                displayName: string | null;
                                chatUserId: string | null;
                            };
                            score: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            reviewedAt: string | null;
                            /** @description When it was accepted or rejected; else null. */
                            decidedAt: string | null;
                        };
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The event `application.submission.submitted`.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    applicationSubmissionUnderReviewEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "application.submission.under_review";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        /** Format: uuid */
                        submissionId: string;
                        /** @constant */
                        status: "under_review";
                        /** Format: date-time */
                        reviewedAt: string;
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    applicationSubmissionReviewUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "application.submission.review_updated";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        /** Format: uuid */
                        submissionId: string;
                        /** @description Unchanged. */
                        status: "submitted" | "under_review";
                        /** @description The score after this update. */
                        score: number | null;
                        /** @description True when the patch carried `score`. */
                        scoreUpdated: boolean;
                        /** @description True when the patch carried `reviewerNotes`. */
                        reviewerNotesUpdated: boolean;
                        /** @description Always the time of this update. */
                        reviewedAt: string | null;
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    applicationSubmissionAcceptedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "application.submission.accepted";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        /** Format: uuid */
                        submissionId: string;
                        /** @constant */
                        status: "accepted";
                        /** Format: date-time */
                        acceptedAt: string;
                        /** @description True when this accept created a new staff profile. */
                        staffProfileCreated: boolean;
                        /** @description The created or linked staff profile; null when no profile was requested. */
                        staffProfileId: string | null;
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    applicationSubmissionRejectedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "application.submission.rejected";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        /** Format: uuid */
                        submissionId: string;
                        /** @constant */
                        status: "rejected";
                        /** Format: date-time */
                        rejectedAt: string;
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    activityShiftStartedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "activity.shift.started";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    /** @description The shift as `GET /v1/activity/shifts/{shiftId}` shows it then. */
                    data: {
                        shift: {
                            /**
                             * Format: uuid
                             * @description Shift id.
                             */
                            id: string;
                            /**
                             * @description `active` or `completed`.
                             * @enum {string}
                             */
                            status: "active" | "completed";
                            /**
                             * Format: date-time
                             * @description Game-server start time.
                             */
                            startedAt: string;
                            /**
                             * Format: date-time
                             * @description Latest game-server heartbeat time.
                             */
                            lastHeartbeatAt: string;
                            /** @description While active: whole seconds from `startedAt` to the server clock now. */
                            elapsedSeconds?: number;
                            universeId: string;
                            placeId: string;
                            serverId: string;
                            staff: {
                                /** Format: uuid */
                                id: string;
                                displayName: string;
                                gameUserId: string;
                            };
                            /**
                             * Format: date-time
                             * @description Once completed: game-server end time.
                             */
                            endedAt?: string;
                            /** @description Once completed: whole seconds. */
                            durationSeconds?: number;
                            /** @description Once completed: whole minutes. */
                            minutes?: number;
                            /**
                             * @description `manual`, `player_left` or `server_shutdown` as sent to stop; `heartbeat_timeout` is set by the server when no start or heartbeat was received for SHIFT_TIMEOUT_SECONDS (the shift then ends at its `lastHeartbeatAt`).
                             * @enum {string}
                             */
                            endReason?: "manual" | "player_left" | "server_shutdown" | "heartbeat_timeout";
                        };
                        /** @description The staff member whose shift it is. */
                        staff: {
                            /** Format: uuid */
                            id: string;
                            displayName: string;
                            gameUserId: string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    activityShiftEndedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "activity.shift.ended";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    /** @description The shift as `GET /v1/activity/shifts/{shiftId}` shows it then. */
                    data: {
                        shift: {
                            /**
                             * Format: uuid
                             * @description Shift id.
                             */
                            id: string;
                            /**
                             * @description `active` or `completed`.
                             * @enum {string}
                             */
                            status: "active" | "completed";
                            /**
                             * Format: date-time
                             * @description Game-server start time.
                             */
                            startedAt: string;
                            /**
                             * Format: date-time
                             * @description Latest game-server heartbeat time.
                             */
                            lastHeartbeatAt: string;
                            /** @description While active: whole seconds from `startedAt` to the server clock now. */
                            elapsedSeconds?: number;
                            universeId: string;
                            placeId: string;
                            serverId: string;
                            staff: {
                                /** Format: uuid */
                                id: string;
                                displayName: string;
                                gameUserId: string;
                            };
                            /**
                             * Format: date-time
                             * @description Once completed: game-server end time.
                             */
                            endedAt?: string;
                            /** @description Once completed: whole seconds. */
                            durationSeconds?: number;
                            /** @description Once completed: whole minutes. */
                            minutes?: number;
                            /**
                             * @description `manual`, `player_left` or `server_shutdown` as sent to stop; `heartbeat_timeout` is set by the server when no start or heartbeat was received for SHIFT_TIMEOUT_SECONDS (the shift then ends at its `lastHeartbeatAt`).
                             * @enum {string}
                             */
                            endReason?: "manual" | "player_left" | "server_shutdown" | "heartbeat_timeout";
                        };
                        /** @description The staff member whose shift it is. */
                        staff: {
                            /** Format: uuid */
                            id: string;
                            displayName: string;
                            gameUserId: string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    staffInactivityNoticeRequestedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "staff.inactivity_notice.requested";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        notice: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            staffId: string;
                            /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                            environment: "test" | "live";
                            /** Format: date-time */
                            startsAt: string;
                            /**
                             * Format: date-time
                             * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                             */
                            endsAt: string;
                            /** @description Why, as the staff member wrote it (trimmed). */
                            reason: string;
                            /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                            status: "pending" | "approved" | "denied" | "cancelled";
                            /**
                             * Format: date-time
                             * @description When it was asked for (a provisioned one: first written).
                             */
                            createdAt: string;
                            /** @description When it was approved or denied; null before a decision. */
                            decidedAt: string | null;
                            /** @description The decision's note; null when none was sent. */
                            decisionNote: string | null;
                        };
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    staffInactivityNoticeApprovedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "staff.inactivity_notice.approved";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        notice: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            staffId: string;
                            /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                            environment: "test" | "live";
                            /** Format: date-time */
                            startsAt: string;
                            /**
                             * Format: date-time
                             * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                             */
                            endsAt: string;
                            /** @description Why, as the staff member wrote it (trimmed). */
                            reason: string;
                            /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                            status: "pending" | "approved" | "denied" | "cancelled";
                            /**
                             * Format: date-time
                             * @description When it was asked for (a provisioned one: first written).
                             */
                            createdAt: string;
                            /** @description When it was approved or denied; null before a decision. */
                            decidedAt: string | null;
                            /** @description The decision's note; null when none was sent. */
                            decisionNote: string | null;
                        };
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    staffInactivityNoticeDeniedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "staff.inactivity_notice.denied";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        notice: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            staffId: string;
                            /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                            environment: "test" | "live";
                            /** Format: date-time */
                            startsAt: string;
                            /**
                             * Format: date-time
                             * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                             */
                            endsAt: string;
                            /** @description Why, as the staff member wrote it (trimmed). */
                            reason: string;
                            /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                            status: "pending" | "approved" | "denied" | "cancelled";
                            /**
                             * Format: date-time
                             * @description When it was asked for (a provisioned one: first written).
                             */
                            createdAt: string;
                            /** @description When it was approved or denied; null before a decision. */
                            decidedAt: string | null;
                            /** @description The decision's note; null when none was sent. */
                            decisionNote: string | null;
                        };
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    staffInactivityNoticeCancelledEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "staff.inactivity_notice.cancelled";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        notice: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            staffId: string;
                            /** @description The environment of the key that asked for it (`live` for a provisioned notice). */
                            environment: "test" | "live";
                            /** Format: date-time */
                            startsAt: string;
                            /**
                             * Format: date-time
                             * @description End (exclusive). A staff member back early from an approved notice under way moves it to then.
                             */
                            endsAt: string;
                            /** @description Why, as the staff member wrote it (trimmed). */
                            reason: string;
                            /** @description `pending`, `approved`, `denied` or `cancelled`; only `approved` lowers a requirement. */
                            status: "pending" | "approved" | "denied" | "cancelled";
                            /**
                             * Format: date-time
                             * @description When it was asked for (a provisioned one: first written).
                             */
                            createdAt: string;
                            /** @description When it was approved or denied; null before a decision. */
                            decidedAt: string | null;
                            /** @description The decision's note; null when none was sent. */
                            decisionNote: string | null;
                        };
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    staffRankChangedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "staff.rank.changed";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        staff: {
                            /** Format: uuid */
                            id: string;
                            displayName: string;
                            gameUserId: string;
                            gameUsername: string;
                            chatUserId: string | null;
                            departmentId: string | null;
                            /** @description The rank now held; null for none. */
                            rank: string | null;
                            status: "active" | "inactive";
                        };
                        change: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            staffId: string;
                            /** @description The rank before; null for an acceptance's entry rank. */
                            fromRank: string | null;
                            toRank: string;
                            /** @description As sent, trimmed; null when none was sent. */
                            reason: string | null;
                            /** @description The member's `userId` (for an entry rank, the deciding member's). */
                            changedBy: string;
                            /** Format: date-time */
                            createdAt: string;
                            sync: {
                                /** @description `pending` (to be applied, or retrying), `applied`, `failed` (Open Cloud refused, or the staff member was erased), `not_configured` (no group id or API key, or neither rank has a role id). */
                                status: "pending" | "applied" | "failed" | "not_configured";
                                /** @description Every try so far. */
                                attempts: number;
                                /** @description The last failed try; null once applied. */
                                lastError: {
                                    /** @description The HTTP status Open Cloud answered; null for a timeout or a network error. */
                                    status: number | null;
                                    /** @description Open Cloud's error `code` (e.g. `PERMISSION_DENIED`), or `timeout`, `network_error`, `erased`. */
                                    code: string;
                                    /** @description Open Cloud's error `message`, or what went wrong. */
                                    message: string;
                                } | null;
                                appliedAt: string | null;
                            };
                        };
                        /**
                         * Format: uuid
                         * @description The recorded command.
                         */
                        commandId: string;
                        /**
                         * Format: uuid
                         * @description The emitted event.
                         */
                        eventId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    staffRankSyncFailedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (`id` of the body), the same on every attempt: deduplicate on it.
                 * @example 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).
                 * @example 1773230400
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint's secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before parsing the body.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id; equals the `webhook-id` header.
                     */
                    id: string;
                    /** @constant */
                    type: "staff.rank.sync_failed";
                    /**
                     * Format: date-time
                     * @description When the event was recorded.
                     */
                    createdAt: string;
                    /** Format: uuid */
                    workspaceId: string;
                    /** @description The environment the data belongs to (`null` for an event of no environment; none is so far). */
                    environment: "test" | "live" | null;
                    data: {
                        staff: {
                            /** Format: uuid */
                            id: string;
                            displayName: string;
                            gameUserId: string;
                            gameUsername: string;
                            chatUserId: string | null;
                            departmentId: string | null;
                            /** @description The rank now held; null for none. */
                            rank: string | null;
                            status: "active" | "inactive";
                        };
                        change: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            staffId: string;
                            /** @description The rank before; null for an acceptance's entry rank. */
                            fromRank: string | null;
                            toRank: string;
                            /** @description As sent, trimmed; null when none was sent. */
                            reason: string | null;
                            /** @description The member's `userId` (for an entry rank, the deciding member's). */
                            changedBy: string;
                            /** Format: date-time */
                            createdAt: string;
                            sync: {
                                /** @description `pending` (to be applied, or retrying), `applied`, `failed` (Open Cloud refused, or the staff member was erased), `not_configured` (no group id or API key, or neither rank has a role id). */
                                status: "pending" | "applied" | "failed" | "not_configured";
                                /** @description Every try so far. */
                                attempts: number;
                                /** @description The last failed try; null once applied. */
                                lastError: {
                                    /** @description The HTTP status Open Cloud answered; null for a timeout or a network error. */
                                    status: number | null;
                                    /** @description Open Cloud's error `code` (e.g. `PERMISSION_DENIED`), or `timeout`, `network_error`, `erased`. */
                                    code: string;
                                    /** @description Open Cloud's error `message`, or what went wrong. */
                                    message: string;
                                } | null;
                                appliedAt: string | null;
                            };
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Acknowledged: any 2xx answer within 10 s ends the delivery. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing delays for 24 h from the event, then marked failed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
