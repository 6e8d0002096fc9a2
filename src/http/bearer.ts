import { AppError } from '../shared/errors.ts';

const BEARER_RE = /^Bearer ([^\s]+)$/i;

export function unauthenticated(message = 'A valid bearer credential is required.'): AppError {
  return new AppError('unauthenticated', message);
}

/** The token of an `Authorization: Bearer <token>` header; 401 when there is none. */
export function bearerToken(header: string | string[] | undefined): string {
  if (typeof header !== 'string') throw unauthenticated();
  const match = BEARER_RE.exec(header);
  if (!match?.[1]) throw unauthenticated();
  return match[1];
}
