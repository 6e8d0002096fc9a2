/** The hostile-caller suite's requests: a route's valid request with parts of it replaced. */
import type { InjectOptions } from 'fastify';
import { newId } from '../../../src/shared/ids.ts';
import { fillPath, type ServedRoute } from '../served-routes.ts';


export interface RequestParts {
  /** The raw Authorization header; null sends none. */
  readonly auth?: string | null;
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body; undefined sends none. */
  readonly body?: unknown;
}

export const key = (secret: string) => `Bearer ${secret}`;

export function merge(base: RequestParts, over: RequestParts): RequestParts {
  return { ...base, ...over, headers: { ...base.headers, ...over.headers } };
}

/** The route's request from its parts: writes get a fresh Idempotency-Key, bodies a JSON content type. */
export function build(route: ServedRoute, parts: RequestParts): InjectOptions {
  const headers: Record<string, string> = {};
  if (parts.auth) headers.authorization = parts.auth;
  if (route.parameters.some((p) => p.name === 'idempotency-key')) headers['idempotency-key'] = `hostile-${newId()}`;
  if (parts.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, parts.headers);
  return {
    method: route.method as InjectOptions['method'],
    url: `${fillPath(route.template, parts.path ?? {})}${parts.query ? `?${parts.query}` : ''}`,
    headers,
    ...(parts.body === undefined ? {} : { payload: JSON.stringify(parts.body) }),
  };
}
