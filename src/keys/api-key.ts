/**
 * What an API key looks like and how it is stored: `wsk_<environment>_<secret>`, the secret 32 or more base62
 * characters; only its SHA-256 is ever stored. Used by request authentication and by provisioning alike, so it
 * knows neither HTTP nor the database.
 */
import type { Environment } from '../shared/actor.ts';
import { randomBase62, sha256Hex } from '../shared/ids.ts';

/** Every API key starts with this; a bearer token that does is never taken for a dashboard token. */
export const API_KEY_PREFIX = 'wsk_';

const API_KEY_RE = /^wsk_(test|live)_[0-9A-Za-z]{32,}$/;

/** Length of the secret part of the keys this service generates. */
const GENERATED_SECRET_LENGTH = 40;

export function isApiKeyFormat(token: string): boolean {
  return API_KEY_RE.test(token);
}

/** The environment a well-formed key names in its prefix; null when the token is not a well-formed key. */
export function apiKeyEnvironment(token: string): Environment | null {
  const match = API_KEY_RE.exec(token);
  return match ? (match[1] as Environment) : null;
}

/** The stored form of a key: lowercase hex SHA-256 of the whole key. */
export function hashApiKey(secret: string): string {
  return sha256Hex(secret);
}

/** A new key for the environment, from a cryptographic source. Shown once; store only its hash. */
export function generateApiKey(environment: Environment): string {
  return `${API_KEY_PREFIX}${environment}_${randomBase62(GENERATED_SECRET_LENGTH)}`;
}
