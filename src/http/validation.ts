import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from '../errors.js';

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

/**
 * Bodies are validated exactly as sent (a string is never taken for a number); query strings, path parameters
 * and headers arrive as text, so their declared scalar types are coerced — but only from plain decimal text
 * (`0x10`, ` 5` or `1e3` for an integer are rejected, not read as numbers).
 */
export function registerValidators(app: FastifyInstance): void {
  const bodyAjv = build({ coerceTypes: false });
  const textAjv = build({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body') return bodyAjv.compile(schema);
    const validate = textAjv.compile(schema);
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
  app.addHook('preHandler', rejectNulCharacters);
}

type RequestPart = 'params' | 'querystring' | 'headers' | 'body';

function declaredNames(schema: unknown): string[] {
  return Object.keys((schema as ObjectSchema | undefined)?.properties ?? {});
}

/** The path of the first string in `value` that contains U+0000, if any (iterative: bodies may nest deeply). */
function nulPath(value: unknown, root: string): string | null {
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) pending.push([child, `${path}.${key}`]);
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000 (a lookup or an insert with it fails), so no value a route reads may contain
 * it, on either store: 400 validation_failed. Runs after schema validation, on the parts the route declares.
 */
async function rejectNulCharacters(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema;
  if (!schema) return;
  const parts: Array<[RequestPart, unknown, unknown]> = [
    ['params', request.params, schema.params],
    ['querystring', request.query, schema.querystring],
    ['headers', request.headers, schema.headers],
    ['body', request.body, schema.body],
  ];
  for (const [part, values, partSchema] of parts) {
    if (partSchema === undefined || values === null || typeof values !== 'object') continue;
    const record = values as Record<string, unknown>;
    const names = part === 'body' ? Object.keys(record) : declaredNames(partSchema);
    for (const name of names) {
      const path = nulPath(record[name], `${part}.${name}`);
      if (path) throw nulError(path);
    }
  }
}

function nulError(path: string) {
  return validationError([{ path, message: 'must not contain the NUL character (U+0000)' }]);
}

