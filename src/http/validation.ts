import { Type, type StringOptions } from '@sinclair/typebox';
import { Ajv, type KeywordDefinition, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { IDEMPOTENCY_KEY_HEADER } from './headers.ts';

/**
 * Schema keyword of request text that names something by uuid (a path parameter, a query parameter, a body
 * property): a uuid is read in lower case, once, as the request is validated, so every lookup, comparison and
 * cursor sees one spelling (ids are stored in lower case; a uuid names the same thing in any case). Text that is
 * not a uuid is left as sent, for the route to judge (a path parameter that is no uuid names nothing: 404).
 */
const UUID_TEXT_KEYWORD = 'x-uuid-case-insensitive';

/** A request string carrying a uuid (any case), read in lower case; add `format: 'uuid'` to require one. */
export function UuidText(options: StringOptions = {}) {
  return Type.String({ ...options, [UUID_TEXT_KEYWORD]: true });
}

interface DataContext {
  readonly parentData?: unknown;
  readonly parentDataProperty?: string | number;
}

/** The Ajv definition of the keyword, registered on every request validator (`build`, below). */
const uuidTextKeyword: KeywordDefinition = {
  keyword: UUID_TEXT_KEYWORD,
  type: 'string',
  schemaType: 'boolean',
  modifying: true,
  errors: false,
  validate(enabled: boolean, data: string, _schema: unknown, context?: DataContext): boolean {
    if (!enabled || context === undefined) return true;
    const { parentData, parentDataProperty } = context;
    if (parentData === null || typeof parentData !== 'object' || parentDataProperty === undefined) return true;
    const lower = data.toLowerCase();
    if (lower !== data && isUuid(data)) (parentData as Record<string | number, unknown>)[parentDataProperty] = lower;
    return true;
  },
};

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

function build(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  ajv.addKeyword(uuidTextKeyword);
  return ajv;
}

const DECIMAL: Record<'integer' | 'number', RegExp> = {
  integer: /^[+-]?\d+$/,
  number: /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/,
};

interface ObjectSchema {
  properties?: Record<string, { type?: unknown }>;
}

/** Numeric properties of a text part (query, params, headers), which arrive as strings. */
function numericProperties(schema: unknown): Array<[string, RegExp]> {
  const properties = (schema as ObjectSchema | undefined)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, property]): Array<[string, RegExp]> =>
    property.type === 'integer' || property.type === 'number' ? [[name, DECIMAL[property.type]]] : [],
  );
}

type ValidationResult = boolean | { error: Error & { validation?: unknown[] } };

interface PartSchema {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
}

/**
 * The header schema as the framework validates it. `Idempotency-Key` is declared (required, with its length and
 * characters) for the document and the types, but checked by the idempotency module, after the body, with its own
 * codes (400 `idempotency_key_required` / `invalid_idempotency_key`): the order and the codes the
 * OpenAPI description of every write documents.
 */
function headersAsValidated(schema: unknown): unknown {
  const part = schema as PartSchema | undefined;
  if (!part?.properties?.[IDEMPOTENCY_KEY_HEADER]) return schema;
  const { [IDEMPOTENCY_KEY_HEADER]: _left, ...properties } = part.properties;
  const required = (part.required ?? []).filter((name) => name !== IDEMPOTENCY_KEY_HEADER);
  return { ...part, properties, required };
}

/**
 * Bodies are validated exactly as sent (a string is never taken for a number); query strings, path parameters
 * and headers arrive as text, so their declared scalar types are coerced — but only from plain decimal text
 * (`0x10`, ` 5` or `1e3` for an integer are rejected, not read as numbers).
 */
export function registerValidators(app: FastifyInstance): void {
  const bodyAjv = build({ coerceTypes: false });
  const textAjv = build({ coerceTypes: 'array' });
  // A date-time in a query string is read by the service's own ISO 8601 parser (with messages that say what to
  // fix, e.g. an unencoded '+'); for text parts, `format: date-time` is the annotation JSON Schema makes it.
  textAjv.addFormat('date-time', true);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body') return bodyAjv.compile(schema);
    const validate = textAjv.compile(httpPart === 'headers' ? (headersAsValidated(schema) as object) : schema);
    const numeric = numericProperties(schema);
    if (numeric.length === 0) return validate;
    const strict = (data: Record<string, unknown>): ValidationResult => {
      for (const [name, pattern] of numeric) {
        const value = data[name];
        if (typeof value === 'string' && !pattern.test(value)) {
          const error: Error & { validation?: unknown[] } = new Error(`${name} must be a decimal number`);
          error.validation = [{ instancePath: `/${name}`, keyword: 'type', message: 'must be a plain decimal number' }];
          return { error };
        }
      }
      const ok = validate(data);
      strict.errors = validate.errors;
      return ok;
    };
    strict.errors = validate.errors;
    return strict;
  });
  app.addHook('preValidation', rejectNullBody);
  app.addHook('preHandler', rejectInvalidText);
}

/**
 * The framework validates an absent body as `null` (so a route whose body may be left out declares it
 * `object | null`), and its JSON parser reads the text `null` as `null` too: without this check, a body that is the
 * JSON literal `null` would pass for no body at all. The JSON parser (below) gives an absent or
 * empty body as `undefined`, so a `null` here was sent: on a route that reads a body it is a body that is not an
 * object, 400 `validation_failed` like `[]` or `1`.
 */
async function rejectNullBody(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema?.body as { type?: unknown } | undefined;
  if (request.body !== null || schema === undefined) return;
  const types = [schema.type].flat().filter((type) => typeof type === 'string' && type !== 'null');
  throw validationError([{ path: 'body', message: types.length > 0 ? `must be ${types.join(',')}` : 'must not be null' }]);
}

/** The body of a write whose body is optional (no body, or an object): what was sent, or `{}` when nothing was. */
export const optionalBody = <T extends object>(body: T | null | undefined): T | Record<never, never> => body ?? {};

type RequestPart = 'params' | 'querystring' | 'headers' | 'body';

function declaredNames(schema: unknown): string[] {
  return Object.keys((schema as ObjectSchema | undefined)?.properties ?? {});
}

/** U+0000, or a UTF-16 surrogate without its pair (text that is not Unicode: `"\ud800"` in JSON). */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for
const INVALID_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

interface InvalidText {
  readonly path: string;
  readonly message: string;
}

function invalidText(text: string, path: string): InvalidText | null {
  const match = INVALID_TEXT.exec(text);
  if (!match) return null;
  return match[0] === '\u0000'
    ? { path, message: 'must not contain the NUL character (U+0000)' }
    : { path, message: 'must be valid Unicode text (it contains an unpaired UTF-16 surrogate)' };
}

/**
 * The first string in `value`, property names included, that the stores cannot hold as sent (iterative: bodies may
 * nest deeply).
 */
function invalidTextIn(value: unknown, root: string): InvalidText | null {
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      const found = invalidText(current, path);
      if (found) return found;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const found = invalidText(key, `${path}.${key}`);
        if (found) return found;
        pending.push([child, `${path}.${key}`]);
      }
    }
  }
  return null;
}

/**
 * Text no store holds as sent is rejected, on either store, with 400 validation_failed: PostgreSQL text cannot hold
 * U+0000 (a lookup or an insert with it fails), and an unpaired surrogate is not Unicode (each store would replace
 * it differently: SQLite with three U+FFFD, PostgreSQL with one). Runs after schema validation, on the parts the
 * route declares.
 */
async function rejectInvalidText(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema;
  if (!schema) return;
  const parts: Array<[RequestPart, unknown, unknown]> = [
    ['params', request.params, schema.params],
    ['querystring', request.query, schema.querystring],
    ['headers', request.headers, schema.headers],
    ['body', request.body, schema.body],
  ];
  for (const [part, values, partSchema] of parts) {
    // A body kept as raw bytes (a route that checks their signature, and reads them itself) holds no text yet.
    if (partSchema === undefined || values === null || typeof values !== 'object' || ArrayBuffer.isView(values)) continue;
    const record = values as Record<string, unknown>;
    const names = part === 'body' ? Object.keys(record) : declaredNames(partSchema);
    for (const name of names) {
      const found = invalidTextIn(record[name], `${part}.${name}`) ?? invalidText(name, `${part}.${name}`);
      if (found) throw validationError([found]);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The body's type and its parsing: JSON only, UTF-8 only.
// ---------------------------------------------------------------------------------------------------------

export const BODY_LIMIT_BYTES = 64 * 1024;
/** application/json, or a +json type, with optional parameters. */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i;

/**
 * For a write that needs a JSON body (a start, an application submission) even though every body is checked later:
 * without `Content-Type: application/json`, 415. Runs after authentication.
 */
export async function requireJsonContentType(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type)) {
    throw new AppError('unsupported_media_type', 'Send the body as application/json (Content-Type is required).');
  }
}

/** Decoding that fails on bytes that are not UTF-8 (instead of replacing them with U+FFFD). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Body text as sent, or null when the bytes are not UTF-8 (JSON is UTF-8: RFC 8259, section 8.1). */
function utf8Text(body: string | Buffer): string | null {
  if (typeof body === 'string') return body;
  try {
    return UTF8.decode(body);
  } catch {
    return null;
  }
}

/**
 * JSON is the only accepted body type. An empty JSON body counts as no body (`undefined`); the text `null` is read
 * as `null`, a body that is not an object (refused by `rejectNullBody` in validation.ts). A body that is not UTF-8 is
 * rejected like any text that is not Unicode (400 validation_failed), not silently read with U+FFFD in place of its
 * bytes.
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    JSON_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const text = utf8Text(body);
      if (text === null) {
        done(validationError([{ path: 'body', message: 'must be UTF-8 encoded text' }]), undefined);
        return;
      }
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, (error, value) => {
        if (error) done(new AppError('invalid_json', 'The request body is not valid JSON.'), undefined);
        else done(null, value);
      });
    },
  );
}
