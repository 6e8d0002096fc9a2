/**
 * fast-check arbitraries for requests against one served route, built from the values of hostile-values.ts
 * (plausible ones mixed with hostile ones): bodies (also raw: NaN/Infinity literals, deep nesting, duplicate and
 * prototype keys, arrays for objects), hostile headers, query strings and path parameters, and whole requests.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { bearer, GUILD_ID, SECOND_GUILD_ID } from '../helpers/fixtures.ts';
import {
  hostileJsonValue,
  hostileString,
  mixedValue,
  namedValues,
  plausible,
  plausibleObject,
  type KnownValues,
} from './hostile-values.ts';
import { fillPath, pathParameters, type JsonSchema, type ServedRoute } from './served-routes.ts';
import type { World } from './world.ts';

export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string | string[]>;
  readonly payload?: string | Buffer;
}

export function injectOptions(request: FuzzRequest): InjectOptions {
  return {
    method: request.method as InjectOptions['method'],
    url: request.url,
    headers: request.headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------------------

const RAW_LITERALS = ['NaN', 'Infinity', '-Infinity', '1e999', '-0', '0x10', '01', '.5', '+1', 'undefined', "'x'", 'tru', '"\\u0000"', '"\\ud800"', '"\\uZZZZ"'];

/** Bodies that are not valid JSON, or JSON that parsers disagree on. */
function rawBody(properties: string[]): fc.Arbitrary<string> {
  const property = properties.length > 0 ? fc.constantFrom(...properties) : fc.constant('x');
  return fc.oneof(
    fc.tuple(property, fc.constantFrom(...RAW_LITERALS)).map(([p, literal]) => `{"${p}": ${literal}}`),
    fc.constantFrom(...RAW_LITERALS),
    fc.tuple(property, fc.jsonValue({ maxDepth: 1 }), hostileJsonValue).map(
      ([p, first, second]) => `{"${p}": ${JSON.stringify(first)}, "${p}": ${JSON.stringify(second) ?? 'null'}}`,
    ),
    property.map((p) => `{"__proto__": {"${p}": 1, "polluted": true}}`),
    property.map((p) => `{"${p}": 1, "constructor": {"prototype": {"polluted": true}}}`),
    property.map((p) => `{"${p}": {"__proto__": {"polluted": true}}}`),
    fc.constantFrom('', ' ', '\n', '{', '{"', '{}}', '[', ']', '{"a":1,}', '\ufeff{}', 'null', '[]', '""', 'true', '0', '{}'),
    fc.integer({ min: 1000, max: 30_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
    fc.integer({ min: 1000, max: 12_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
}

/** Each part of a request is valid most of the time and hostile sometimes, so requests reach every check. */
function validOr<T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>, weights = { valid: 5, hostile: 1 }): fc.Arbitrary<T> {
  return fc.oneof({ weight: weights.valid, arbitrary: valid }, { weight: weights.hostile, arbitrary: hostile });
}

type Body = string | Buffer | undefined;

function bodyArbitrary(route: ServedRoute, known: KnownValues): fc.Arbitrary<Body> {
  const schema = route.body?.schema;
  const properties = Object.keys(schema?.properties ?? {});
  const objectSchema: JsonSchema = { ...(schema ?? {}), type: 'object', properties: schema?.properties ?? {} };
  const plausibleBody = plausibleObject(objectSchema, known).map((b): Body => JSON.stringify(b));
  const mutated = fc
    .tuple(
      plausibleObject(objectSchema, known),
      fc.dictionary(
        properties.length > 0 ? fc.constantFrom(...properties) : fc.string({ maxLength: 6 }),
        fc.constant(0),
        { maxKeys: 2 },
      ),
      fc.option(
        fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'toString')), hostileJsonValue, { maxKeys: 2 }),
        { nil: undefined },
      ),
    )
    .chain(([base, toBreak, extra]) => {
      const broken = Object.keys(toBreak);
      return fc
        .tuple(...broken.map((name) => mixedValue(schema?.properties?.[name] ?? {}, name, known)))
        .map((values) => {
          const body: Record<string, unknown> = { ...base };
          broken.forEach((name, i) => (body[name] = values[i]));
          return extra ? { ...body, ...extra } : body;
        });
    });
  const valid: fc.Arbitrary<Body> = !route.body
    ? fc.constant(undefined)
    : route.body.required
      ? plausibleBody
      : fc.oneof(plausibleBody, fc.constant(undefined));
  const hostile: fc.Arbitrary<Body> = fc.oneof(
    { weight: 5, arbitrary: mutated.map((b) => JSON.stringify(b)) },
    { weight: 4, arbitrary: rawBody(properties) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: mutated.map((b) => JSON.stringify([b])) },
    { weight: 1, arbitrary: fc.integer({ min: 64 * 1024 - 20, max: 80 * 1024 }).map((n) => JSON.stringify({ [properties[0] ?? 'x']: 'x'.repeat(n) })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 30 }).map((bytes) => Buffer.from([0xff, 0xfe, ...bytes])) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return validOr(valid, hostile, { valid: 5, hostile: 2 });
}

// ---------------------------------------------------------------------------------------------------------
// Headers, query, path
// ---------------------------------------------------------------------------------------------------------

type HeaderValue = string | string[] | undefined;

/** Absent, one value, or the header sent twice. */
function header(values: fc.Arbitrary<string>): fc.Arbitrary<HeaderValue> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: values },
    { weight: 1, arbitrary: fc.tuple(values, values).map((pair) => [...pair]) },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json;charset=latin1',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/json, text/plain',
  '',
  ';',
  '*/*',
];

const hostileIdempotencyKey = fc.oneof(
  hostileString,
  fc.constantFrom('', ' ', 'x'.repeat(255), 'x'.repeat(256), 'cl\u00e9', 'tab\there'),
);

const hostileCorrelationId = fc.oneof(
  hostileString,
  fc.constantFrom('', 'x'.repeat(129), 'has space', 'req_spoofed00000000000000'),
);

/** Headers that must never matter: a spoofed request id, cookies, signatures, forwarding, method overrides. */
const strayHeaders = fc.dictionary(
  fc.constantFrom('x-request-id', 'cookie', 'x-service-signature', 'x-forwarded-for', 'x-api-key', 'accept', 'accept-encoding', 'origin', 'x-http-method-override'),
  fc.oneof(hostileString.filter((s) => /^[\x20-\x7e]*$/.test(s)), fc.constantFrom('DELETE', 'gzip', 'req_spoofedspoofedspoofed')),
  { minKeys: 1, maxKeys: 3 },
);

function encodeSegment(value: string): string {
  return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '?'));
}

/** Existing entities of the right kind (and ids of other kinds) for a path parameter. */
function validPathValue(name: string, known: KnownValues): fc.Arbitrary<string> {
  return fc.constantFrom(...(namedValues(known, name) ?? known.uuids));
}

/** Missing entities, other letter cases, garbage, encoded slashes and dots, malformed escapes, great length. */
function hostilePathValue(name: string, known: KnownValues): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: validPathValue(name, known).map((v) => v.toUpperCase()) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom(...known.uuids) },
    { weight: 3, arbitrary: hostileString.filter((s) => s.length > 0 && s.length < 700).map(encodeSegment) },
    { weight: 2, arbitrary: fc.constantFrom('%2F', '..%2F..%2Fhealth', '%00', '%', '%zz', '%E0%A4%A', '%C0%AF', 'active', 'a;b=c', '%20') },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 800 }).map((n) => 'a'.repeat(n)) },
  );
}

function queryPair(name: string, value: string): string {
  return `${encodeSegment(name)}=${value}`;
}

/** Some declared parameters with plausible values. */
function validQuery(route: ServedRoute, known: KnownValues): fc.Arbitrary<string[]> {
  const declared = route.parameters.filter((p) => p.in === 'query');
  if (declared.length === 0) return fc.constant([]);
  return fc.subarray(declared, { maxLength: Math.min(3, declared.length) }).chain((chosen) =>
    fc.tuple(
      ...chosen.map((p) =>
        plausible(p.schema, p.name, known).map((v) => queryPair(p.name, encodeSegment(typeof v === 'string' ? v : JSON.stringify(v)))),
      ),
    ),
  );
}

/** Declared and unknown names, repeated names, hostile values, malformed escapes, names without values. */
function hostileQuery(route: ServedRoute, known: KnownValues): fc.Arbitrary<string[]> {
  const names = route.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const nameArb = fc.oneof(
    { weight: names.length > 0 ? 3 : 0, arbitrary: names.length > 0 ? fc.constantFrom(...names) : fc.constant('x') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'a[b]', 'limit[]', 'x', '') },
  );
  const value = fc.oneof(
    { weight: 2, arbitrary: hostileString.map(encodeSegment) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%00', '', '1e3', '10.5', '-1', '+5', '0x10', 'NaN', '9007199254740993', '%20%2010') },
  );
  const pair = fc.oneof(
    { weight: 9, arbitrary: fc.tuple(nameArb, value).map(([n, v]) => queryPair(n, v)) },
    { weight: 1, arbitrary: nameArb.map(encodeSegment) },
  );
  return fc.tuple(validQuery(route, known), fc.array(pair, { minLength: 1, maxLength: 4 })).map(([a, b]) => [...a, ...b]);
}

// ---------------------------------------------------------------------------------------------------------
// Whole requests
// ---------------------------------------------------------------------------------------------------------

/** Valid credentials of the kind the route takes, so requests get past authentication. */
function credential(route: ServedRoute, world: World): fc.Arbitrary<string | undefined> {
  if (route.security === 'apiKey') {
    return fc.constantFrom(world.a.keys.test.secret, world.a.keys.live.secret, world.app2.secret);
  }
  if (route.security === 'dashboardToken') return fc.constant(world.tokens.reviewer);
  return fc.option(fc.constantFrom(world.a.keys.test.secret, world.tokens.reviewer), { nil: undefined });
}

function declares(route: ServedRoute, headerName: string): boolean {
  return route.parameters.some((p) => p.in === 'header' && p.name === headerName);
}

export function requestArbitrary(route: ServedRoute, world: World, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const params = pathParameters(route.template);
  const path = fc
    .tuple(...params.map((name) => validOr(validPathValue(name, known), hostilePathValue(name, known))))
    .map((values) => Object.fromEntries(params.map((name, i) => [name, values[i]!])));
  const writes = declares(route, 'idempotency-key');
  const chatIds = world.a.staff;
  const headers = fc.record({
    authorization: credential(route, world),
    'idempotency-key': validOr<HeaderValue>(
      writes
        ? fc.oneof({ weight: 4, arbitrary: fc.uuid().map((id) => `fuzz-${id}`) }, { weight: 1, arbitrary: fc.constantFrom('k1', 'k2', 'k3') })
        : fc.constant(undefined),
      header(hostileIdempotencyKey),
    ),
    'x-correlation-id': validOr<HeaderValue>(
      fc.option(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 }).filter((v) => !v.includes(' ')), { nil: undefined }),
      header(hostileCorrelationId),
    ),
    'x-service-workspace-id': validOr<HeaderValue>(
      declares(route, 'x-service-workspace-id') ? fc.option(fc.constant(world.a.ids.workspaceId), { nil: undefined }) : fc.constant(undefined),
      header(fc.oneof(fc.constantFrom(...(namedValues(known, 'x-service-workspace-id') ?? [])), fc.uuid(), hostileString)),
    ),
    'x-chat-guild-id': validOr<HeaderValue>(
      declares(route, 'x-chat-guild-id') ? fc.constant(GUILD_ID) : fc.constant(undefined),
      header(fc.oneof(fc.constant(SECOND_GUILD_ID), hostileString)),
    ),
    'x-acting-chat-user-id': validOr<HeaderValue>(
      declares(route, 'x-acting-chat-user-id')
        ? fc.constantFrom(chatIds.alice.chatUserId ?? '', chatIds.bob.chatUserId ?? '', chatIds.carol.chatUserId ?? '')
        : fc.constant(undefined),
      header(fc.oneof(fc.constantFrom(...(namedValues(known, 'x-acting-chat-user-id') ?? [])), hostileString)),
    ),
    stray: validOr<Record<string, string>>(fc.constant({}), strayHeaders),
  });
  const method = validOr(fc.constant(route.method), fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), {
    valid: 20,
    hostile: 1,
  });
  const query = validOr(validQuery(route, known), hostileQuery(route, known));
  return fc
    .record({ method, path, query, headers, body: bodyArbitrary(route, known) })
    .chain((parts) => {
      // The content type follows the body when valid (start wants it even without one); sometimes it is hostile.
      const sensible = parts.body !== undefined || route.body?.required ? 'application/json' : undefined;
      const contentType = validOr<HeaderValue>(fc.constant(sensible), header(fc.constantFrom(...CONTENT_TYPES)));
      return contentType.map((type) => ({ ...parts, contentType: type }));
    })
    .map(({ method: m, path: values, query: pairs, headers: h, body, contentType }) => {
      const { authorization, stray, ...rest } = h;
      const sent: Record<string, string | string[]> = { ...stray };
      if (authorization !== undefined) Object.assign(sent, bearer(authorization));
      for (const [name, value] of Object.entries({ ...rest, 'content-type': contentType })) {
        if (value !== undefined) sent[name] = value;
      }
      const request: FuzzRequest = {
        method: m,
        url: `${fillPath(route.template, values)}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`,
        headers: sent,
        ...(body === undefined ? {} : { payload: body }),
      };
      // Counterexamples print short: bodies and headers can be tens of kilobytes.
      Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request) });
      return request;
    });
}

export function describeRequest(request: FuzzRequest): string {
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);
  const payload = request.payload === undefined ? '(no body)' : clip(JSON.stringify(String(request.payload)), 300);
  return `${request.method} ${clip(request.url, 300)}\n  headers: ${clip(JSON.stringify(request.headers), 600)}\n  body: ${payload}`;
}
