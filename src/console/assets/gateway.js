// The API operations the console uses, with the shapes of their answers (as the served OpenAPI document describes
// them). Every write carries a fresh Idempotency-Key: one per attempt, so a retry after an error is a new attempt.

/** @typedef {import('./api.js').Api} Api */
/** @typedef {'applications.review' | 'applications.decide' | 'staff.create' | 'notices.decide' | 'staff.rank'} Permission */
/** @typedef {{ name: string, order: number, assignable: boolean }} WorkspaceRank */
/** @typedef {'submitted' | 'under_review' | 'accepted' | 'rejected'} SubmissionStatus */
/** @typedef {'pending' | 'approved' | 'denied' | 'cancelled'} NoticeStatus */
/**
 * @typedef {object} Workspace
 * @property {string} id
 * @property {string} name
 * @property {string} timezone IANA time zone, in which the console shows times
 * @property {boolean} createStaffProfileOnAccept the workspace setting the "Create staff profile" box starts from
 * @property {Permission[]} permissions
 * @property {WorkspaceRank[]} ranks the workspace's ranks by `order`; empty when it has none
 */
/** @typedef {{ userId: string, workspaces: Workspace[] }} Me */
/** @typedef {{ token: string, expiresAt: string, userId: string }} SignedIn */
/**
 * @typedef {object} Applicant
 * @property {string} gameUserId
 * @property {string | null} gameUsername
 * @property {string | null} displayName
 * @property {string | null} chatUserId
 */
/**
 * @typedef {object} SubmissionItem
 * @property {string} id
 * @property {string | null} formId
 * @property {string | null} formName
 * @property {SubmissionStatus} status
 * @property {'live' | 'test'} environment
 * @property {Applicant} applicant
 * @property {number | null} score
 * @property {string} createdAt
 * @property {string | null} reviewedAt
 * @property {string | null} decidedAt
 */
/** @typedef {{ questionId: string, label: string, type: string, value: string | number | boolean | string[] | null }} Answer */
/**
 * @typedef {object} HistoryEntry
 * @property {string} commandId
 * @property {'submitted' | 'marked_under_review' | 'review_updated' | 'accepted' | 'rejected'} type
 * @property {{ type: 'dashboard_user' | 'api_key', id: string, name: string | null }} actor the application's name for an API key
 * @property {string} at
 * @property {string | null} reviewNote
 */
/**
 * @typedef {SubmissionItem & { reviewerNotes: string | null, staffProfileId: string | null, answers: Answer[],
 *   history: HistoryEntry[] }} SubmissionDetail
 */
/** @typedef {{ cursorCreatedAt: string, cursorId: string }} QueueCursor */
/** @typedef {{ submissions: SubmissionItem[], nextCursor: QueueCursor | null }} QueuePage */
/**
 * @typedef {object} FormStats
 * @property {string | null} formId
 * @property {string | null} formName
 * @property {number} submitted
 * @property {number} underReview
 * @property {number} accepted
 * @property {number} rejected
 */
/**
 * @typedef {object} Notice
 * @property {string} id
 * @property {'live' | 'test'} environment
 * @property {string} startsAt
 * @property {string} endsAt
 * @property {string} reason
 * @property {NoticeStatus} status
 * @property {string} createdAt
 * @property {string | null} decidedAt
 * @property {string | null} decisionNote
 * @property {string | null} decidedBy
 * @property {{ id: string, displayName: string, gameUserId: string, chatUserId: string | null }} staff
 */
/** @typedef {{ cursorStartsAt: string, cursorId: string }} NoticeCursor */
/** @typedef {{ notices: Notice[], nextCursor: NoticeCursor | null }} NoticePage */
/** @typedef {{ staffProfileCreated: boolean, staffProfileId: string | null }} AcceptResult */

/** @param {string} id */
const submissionPath = (id) => `/v1/applications/submissions/${encodeURIComponent(id)}`;
/** @param {string} id */
const noticePath = (id) => `/v1/staff/inactivity-notices/${encodeURIComponent(id)}`;

/**
 * An optional note: its trimmed text, or nothing when empty.
 * @param {string} name
 * @param {string} text
 * @returns {Record<string, string>}
 */
function note(name, text) {
  const trimmed = text.trim();
  return trimmed === '' ? {} : { [name]: trimmed };
}

/** @param {Api} api */
export function gateway(api) {
  return {
    /** @param {string} code @returns {Promise<SignedIn>} */
    signIn: async (code) => /** @type {SignedIn} */ (await api.call('/v1/console/sessions', { method: 'POST', body: { code } })),
    /** @returns {Promise<Me>} */
    me: async () => /** @type {Me} */ (await api.call('/v1/console/me')),
    /**
     * @param {{ status: string, formId: string, environment: string, cursor: QueueCursor | null }} filter
     * @returns {Promise<QueuePage>}
     */
    queue: async ({ status, formId, environment, cursor }) =>
      /** @type {QueuePage} */ (
        await api.call('/v1/applications/submissions', { query: { status, formId, environment, limit: '25', ...cursor } })
      ),
    /** @param {string} id @returns {Promise<SubmissionDetail>} */
    submission: async (id) =>
      /** @type {{ submission: SubmissionDetail }} */ (await api.call(submissionPath(id))).submission,
    /** @param {string} environment @returns {Promise<FormStats[]>} */
    stats: async (environment) =>
      /** @type {{ forms: FormStats[] }} */ (await api.call('/v1/applications/stats', { query: { environment } })).forms,
    /** @param {string} id @param {{ score: number | null, reviewerNotes: string | null }} review */
    saveReview: (id, review) => api.call(`${submissionPath(id)}/review`, { method: 'PATCH', body: review, idempotent: true }),
    /** @param {string} id @param {string} reviewNote */
    markUnderReview: (id, reviewNote) =>
      api.call(`${submissionPath(id)}/mark-under-review`, { method: 'POST', body: note('reviewNote', reviewNote), idempotent: true }),
    /** @param {string} id @param {string} reviewNote @param {boolean | undefined} createStaffProfile @returns {Promise<AcceptResult>} */
    accept: async (id, reviewNote, createStaffProfile) =>
      /** @type {AcceptResult} */ (
        await api.call(`${submissionPath(id)}/accept`, {
          method: 'POST',
          body: { ...note('reviewNote', reviewNote), ...(createStaffProfile === undefined ? {} : { createStaffProfile }) },
          idempotent: true,
        })
      ),
    /** @param {string} id @param {string} reviewNote */
    reject: (id, reviewNote) =>
      api.call(`${submissionPath(id)}/reject`, { method: 'POST', body: note('reviewNote', reviewNote), idempotent: true }),
    /**
     * @param {{ status: string, environment: string, cursor: NoticeCursor | null }} filter
     * @returns {Promise<NoticePage>}
     */
    notices: async ({ status, environment, cursor }) =>
      /** @type {NoticePage} */ (
        await api.call('/v1/staff/inactivity-notices', { query: { status, environment, limit: '25', ...cursor } })
      ),
    /** @param {string} id @param {'approve' | 'deny'} decision @param {string} text */
    decideNotice: (id, decision, text) =>
      api.call(`${noticePath(id)}/${decision}`, { method: 'POST', body: note('note', text), idempotent: true }),
  };
}

/** @typedef {ReturnType<typeof gateway>} Gateway */
