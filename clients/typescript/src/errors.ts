import type { components } from './openapi.ts';

/** The error envelope every 4xx and 5xx answer carries. */
export type ErrorEnvelope = components['schemas']['ErrorResponse'];
/** A stable error code of the gateway (the closed list of the document). */
export type ErrorCode = ErrorEnvelope['error']['code'];
/** The envelope's extra context; which fields appear depends on the code. */
export type ErrorDetails = NonNullable<ErrorEnvelope['error']['details']>;
type Issue = NonNullable<ErrorDetails['issues']>[number];
/** One problem with one answer of a refused application: `{ questionId, code, message }`. */
export type AnswerIssue = Extract<Issue, { questionId: string }>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** True when `body` has the shape of the error envelope. */
export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (!isObject(body) || !isObject(body.error)) return false;
  const { code, message, requestId } = body.error;
  return typeof code === 'string' && typeof message === 'string' && typeof requestId === 'string';
}

/**
 * An answer of the gateway that is not a success, after the client's retries. `code`, `message`, `requestId` and
 * `details` come from the error envelope; an answer without one (e.g. from a proxy) has code `unexpected_response`.
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly status: number;
  readonly code: ErrorCode | 'unexpected_response';
  readonly requestId: string | undefined;
  readonly details: ErrorDetails | undefined;
  /**
   * For a `validation_failed` answer to `submitApplication`: every problem with the answers, one entry per question
   * (show each next to its question). Empty for any other error.
   */
  readonly answerIssues: readonly AnswerIssue[];
  /** Seconds the gateway asked to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;
  /** True when the answer is the stored result of an earlier request with the same Idempotency-Key. */
  readonly replayed: boolean;

  constructor(response: Response, body: unknown) {
    const envelope = isErrorEnvelope(body) ? body.error : undefined;
    super(envelope?.message ?? `The gateway answered ${response.status} without an error envelope.`);
    this.status = response.status;
    this.code = envelope?.code ?? 'unexpected_response';
    this.requestId = envelope?.requestId ?? response.headers.get('x-request-id') ?? undefined;
    this.details = envelope?.details;
    const issues: readonly Issue[] = this.details?.issues ?? [];
    this.answerIssues = issues.filter((issue): issue is AnswerIssue => 'questionId' in issue && typeof issue.questionId === 'string');
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    this.retryAfterSeconds = Number.isFinite(retryAfter) ? retryAfter : undefined;
    this.replayed = response.headers.get('idempotent-replayed') === 'true';
  }
}
