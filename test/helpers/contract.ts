import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

interface Operation {
  readonly method: string;
  readonly pattern: RegExp;
  readonly template: string;
  readonly responses: Record<string, unknown>;
}

/** The parts of an OpenAPI document the checker reads; the rest is reached through JSON pointers. */
export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  readonly components?: Record<string, unknown>;
}

/** A response as the checker sees it: `app.inject`'s, or one received over HTTP (header names in any case). */
export interface CheckableResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  readonly body: string;
}

interface HeaderObject {
  readonly required?: boolean;
  readonly schema?: unknown;
}

/** Thrown when a response is not what the document says (so callers can tell it from a network failure). */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

const REQUEST_ID = /^req_[0-9A-Za-z]{16,}$/;
/** The reusable responses the document gives requests that match none of its operations. */
const UNMATCHED_RESPONSES: Readonly<Record<number, string>> = { 404: 'NotFound', 405: 'MethodNotAllowed' };
const DECIMAL = /^-?\d+(\.\d+)?$/;

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function templatePattern(template: string): RegExp {
  const source = template
    .split('/')
    .map((part) => (/^\{.+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The value of a header, found case-insensitively; repeated fields joined with ", " as HTTP combines them. */
function headerValue(headers: CheckableResponse['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }
  return undefined;
}

/** The JSON types a schema allows (`type` as a string or a list). */
function schemaTypes(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * What a header string may stand for under its schema (a header is always text on the wire): itself, the decimal
 * number it spells when the schema allows a number, and the boolean when it allows one.
 */
function headerCandidates(raw: string, types: readonly string[]): unknown[] {
  const candidates: unknown[] = [raw];
  if ((types.includes('integer') || types.includes('number')) && DECIMAL.test(raw)) candidates.push(Number(raw));
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) candidates.push(raw === 'true');
  return candidates;
}

/**
 * Validates responses against the OpenAPI document the app serves: an undocumented path, method or status, a body
 * that does not match its schema, a documented response header that is missing (`required: true`) or does not match
 * its schema, a response without a well-formed X-Request-Id, or an error whose `requestId` is not that header fails
 * the test with a ContractViolation.
 */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[];
  private readonly validators = new Map<string, ValidateFunction>();

  private readonly document: OpenApiDocument;
  constructor(document: OpenApiDocument) {
    this.document = document;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'openapi');
    this.operations = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        this.operations.push({
          method: method.toUpperCase(),
          pattern: templatePattern(template),
          template,
          responses: op.responses ?? {},
        });
      }
    }
    // Literal segments win over parameters (e.g. /shifts/active before /shifts/{shiftId}).
    const params = (op: Operation) => op.template.split('{').length;
    this.operations.sort((a, b) => params(a) - params(b));
  }

  static async fromApp(app: FastifyInstance): Promise<ContractChecker> {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    const checker = new ContractChecker(res.json());
    checker.check('GET', '/openapi.json', res);
    return checker;
  }

  /** The checker for the server at `baseUrl`, from its own GET /openapi.json (whose answer is checked too). */
  static async fromUrl(baseUrl: string): Promise<ContractChecker> {
    const res = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(10_000) });
    const body = await res.text();
    const checker = new ContractChecker(JSON.parse(body) as OpenApiDocument);
    checker.check('GET', '/openapi.json', { statusCode: res.status, headers: headersOf(res), body });
    return checker;
  }

  private find(method: string, path: string): Operation | undefined {
    const candidates = this.operations.filter((op) => op.pattern.test(path));
    return candidates.find((op) => op.method === method);
  }

  /** Follows local `$ref`s (`#/components/...`) from `value` at `pointer`; returns the target and where it is. */
  private resolve(value: unknown, pointer: string): { value: unknown; pointer: string } {
    let current = value;
    let at = pointer;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
      const ref = current.$ref;
      if (hops > 16 || !ref.startsWith('#/')) throw new ContractViolation(`${at}: cannot resolve $ref ${ref}`);
      let target: unknown = this.document;
      for (const raw of ref.slice(2).split('/')) {
        const segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
        target = isObject(target) ? target[segment] : undefined;
      }
      if (target === undefined) throw new ContractViolation(`${at}: $ref ${ref} points at nothing`);
      current = target;
      at = ref;
    }
    return { value: current, pointer: at };
  }

  private validator(ref: string, label: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      const found = this.ajv.getSchema(ref);
      if (!found) throw new ContractViolation(`${label}: no schema at ${ref}`);
      validate = found;
      this.validators.set(ref, validate);
    }
    return validate;
  }

  /** Throws a ContractViolation with a readable message when the response is not what the document says. */
  check(method: string, url: string, response: CheckableResponse): void {
    // The path the server saw: HTTP clients (inject and fetch alike) resolve dot segments before sending, so
    // `/shifts/./stop` arrives as `/shifts/stop`.
    const path = new URL(url.split('?')[0] ?? url, 'http://contract.invalid').pathname;
    // The document promises X-Request-Id on every response, also on those of undocumented routes (404/405).
    const requestId = headerValue(response.headers, 'x-request-id');
    if (requestId === undefined || !REQUEST_ID.test(requestId)) {
      throw new ContractViolation(`${method} ${path} ${response.statusCode}: missing or malformed X-Request-Id (${String(requestId)})`);
    }
    const op = this.find(method.toUpperCase(), path);
    if (!op) {
      // Undocumented routes may only answer 404/405, as the document's reusable responses for them say.
      const unmatched = UNMATCHED_RESPONSES[response.statusCode];
      if (unmatched === undefined) {
        throw new ContractViolation(`${method} ${path}: not in the OpenAPI document but answered ${response.statusCode}`);
      }
      const label = `${method} ${path} ${response.statusCode}`;
      const pointer = `#/components/responses/${unmatched}`;
      const documented = this.resolve({ $ref: pointer }, pointer).value;
      this.checkHeaders(isObject(documented) ? documented.headers : undefined, pointer, response, label);
      this.validate('openapi#/components/schemas/ErrorResponse', response, label);
      return;
    }
    const status = String(response.statusCode);
    if (!(status in op.responses)) {
      throw new ContractViolation(`${method} ${op.template}: status ${status} is not documented`);
    }
    const label = `${method} ${op.template} ${status}`;
    const documented = this.resolve(
      op.responses[status],
      `#/paths/${escapePointer(op.template)}/${op.method.toLowerCase()}/responses/${status}`,
    );
    const responseObject = isObject(documented.value) ? documented.value : {};
    this.checkHeaders(responseObject.headers, documented.pointer, response, label);
    const media = responseObject.content;
    if (!isObject(media)) return;
    if (!('application/json' in media)) {
      // A non-JSON answer (the metrics exposition): its media type must be one the document names.
      const type = (headerValue(response.headers, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!(type in media)) throw new ContractViolation(`${label}: content type ${type} is not documented`);
      return;
    }
    this.validate(`openapi${documented.pointer}/content/${escapePointer('application/json')}/schema`, response, label);
  }

  /**
   * An answer given before any route is chosen (Node's HTTP parser rejected the request): a well-formed
   * X-Request-Id, and a body in the documented error envelope whose `requestId` is that header.
   */
  checkParserError(response: CheckableResponse): void {
    const requestId = headerValue(response.headers, 'x-request-id');
    if (requestId === undefined || !REQUEST_ID.test(requestId)) {
      throw new ContractViolation(`parser error ${response.statusCode}: missing or malformed X-Request-Id (${String(requestId)})`);
    }
    this.validate('openapi#/components/schemas/ErrorResponse', response, `parser error ${response.statusCode}`);
  }

  /** Each documented header: present when `required: true`; when present, valid under its schema. */
  private checkHeaders(headers: unknown, pointer: string, response: CheckableResponse, label: string): void {
    if (!isObject(headers)) return;
    for (const [name, declared] of Object.entries(headers)) {
      // OpenAPI: a header named Content-Type is ignored (the media type says it).
      if (name.toLowerCase() === 'content-type') continue;
      const { value, pointer: at } = this.resolve(declared, `${pointer}/headers/${escapePointer(name)}`);
      const header = (isObject(value) ? value : {}) as HeaderObject;
      const raw = headerValue(response.headers, name.toLowerCase());
      if (raw === undefined) {
        if (header.required === true) throw new ContractViolation(`${label}: required header ${name} is missing`);
        continue;
      }
      if (header.schema === undefined) throw new ContractViolation(`${label}: header ${name} is documented without a schema`);
      const validate = this.validator(`openapi${at}/schema`, label);
      const types = schemaTypes(this.resolve(header.schema, `${at}/schema`).value);
      if (!headerCandidates(raw, types).some((candidate) => validate(candidate))) {
        throw new ContractViolation(
          `${label}: header ${name} (${JSON.stringify(raw)}) does not match its schema: ${this.ajv.errorsText(validate.errors)}`,
        );
      }
    }
  }

  private validate(ref: string, response: CheckableResponse, label: string): void {
    const validate = this.validator(ref, label);
    let body: unknown;
    try {
      body = JSON.parse(response.body) as unknown;
    } catch {
      throw new ContractViolation(`${label}: body is not JSON: ${response.body.slice(0, 200)}`);
    }
    if (!validate(body)) {
      throw new ContractViolation(
        `${label}: body does not match the OpenAPI schema: ${this.ajv.errorsText(validate.errors)}\n${response.body.slice(0, 500)}`,
      );
    }
    if (response.statusCode >= 400) {
      const err = (body as { error?: { requestId?: string } }).error;
      if (!err || typeof err.requestId !== 'string') throw new ContractViolation(`${label}: error body without requestId`);
      // The X-Request-Id description: "equals `error.requestId` on errors". Not on an idempotent replay: that is
      // the stored body of the first request (with its requestId), under this request's X-Request-Id.
      const requestId = headerValue(response.headers, 'x-request-id');
      const replayed = headerValue(response.headers, 'idempotent-replayed') === 'true';
      if (!replayed && err.requestId !== requestId) {
        throw new ContractViolation(`${label}: error.requestId ${err.requestId} is not X-Request-Id ${String(requestId)}`);
      }
    }
  }
}

export type Inject = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** `app.inject`, with every response checked against the served OpenAPI document. */
export async function checkedInject(app: FastifyInstance): Promise<Inject> {
  const checker = await ContractChecker.fromApp(app);
  return async (options) => {
    const response = await app.inject(options);
    checker.check(String(options.method ?? 'GET'), String(options.url ?? '/'), response);
    return response;
  };
}

/** Response headers of `fetch` as a plain object: lower-case names, repeated fields joined with ", ". */
export function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

const servedCheckers = new Map<string, Promise<ContractChecker>>();

/**
 * The checker for the server at `baseUrl`, built from its GET /openapi.json once per base URL and cached; pass
 * `refresh` when a new process answers there. A failed fetch is not cached.
 */
export function checkerFor(baseUrl: string, options: { readonly refresh?: boolean } = {}): Promise<ContractChecker> {
  const cached = options.refresh ? undefined : servedCheckers.get(baseUrl);
  if (cached) return cached;
  const checker = ContractChecker.fromUrl(baseUrl);
  servedCheckers.set(baseUrl, checker);
  checker.catch(() => {
    if (servedCheckers.get(baseUrl) === checker) servedCheckers.delete(baseUrl);
  });
  return checker;
}

/** A response received over HTTP, with its body as text. */
export interface FetchedResponse extends CheckableResponse {
  readonly headers: Readonly<Record<string, string>>;
  json(): unknown;
}

/**
 * `fetch(baseUrl + path)`, with the response checked against the document of the server at `baseUrl`. A network
 * failure rejects as `fetch` does; a response the document does not allow throws a ContractViolation.
 */
export async function checkedFetch(baseUrl: string, path: string, init: RequestInit = {}): Promise<FetchedResponse> {
  // Fetched first: once the server is gone, its document can no longer be.
  const checker = await checkerFor(baseUrl);
  const res = await fetch(`${baseUrl}${path}`, init);
  const body = await res.text();
  const response: FetchedResponse = {
    statusCode: res.status,
    headers: headersOf(res),
    body,
    json: () => JSON.parse(body) as unknown,
  };
  checker.check(init.method ?? 'GET', path, response);
  return response;
}
