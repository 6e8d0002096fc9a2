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

/**
 * Validates responses against the OpenAPI document the app serves: an undocumented path, method or status,
 * a body that does not match its schema, or an error without X-Request-Id fails the test.
 */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }) {
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
    return new ContractChecker(res.json());
  }

  private find(method: string, path: string): Operation | undefined {
    const candidates = this.operations.filter((op) => op.pattern.test(path));
    return candidates.find((op) => op.method === method);
  }

  /** Throws with a readable message when the response is not what the document says. */
  check(method: string, url: string, response: LightMyRequestResponse): void {
    const path = url.split('?')[0] ?? url;
    const requestId = response.headers['x-request-id'];
    if (typeof requestId !== 'string' || !/^req_[0-9A-Za-z]{16,}$/.test(requestId)) {
      throw new Error(`${method} ${path}: missing or malformed X-Request-Id (${String(requestId)})`);
    }
    const op = this.find(method.toUpperCase(), path);
    if (!op) {
      // Undocumented routes may only answer 404/405 in the error envelope.
      if (response.statusCode !== 404 && response.statusCode !== 405) {
        throw new Error(`${method} ${path}: not in the OpenAPI document but answered ${response.statusCode}`);
      }
      this.validate('openapi#/components/schemas/ErrorResponse', response, `${method} ${path}`);
      return;
    }
    const status = String(response.statusCode);
    if (!(status in op.responses)) {
      throw new Error(`${method} ${op.template}: status ${status} is not documented`);
    }
    const media = (op.responses[status] as { content?: Record<string, unknown> }).content;
    if (!media) return;
    const pointer = `openapi#/paths/${escapePointer(op.template)}/${op.method.toLowerCase()}/responses/${status}/content/${escapePointer('application/json')}/schema`;
    this.validate(pointer, response, `${method} ${op.template} ${status}`);
  }

  private validate(ref: string, response: LightMyRequestResponse, label: string): void {
    let validate = this.validators.get(ref);
    if (!validate) {
      const found = this.ajv.getSchema(ref);
      if (!found) throw new Error(`${label}: no schema at ${ref}`);
      validate = found;
      this.validators.set(ref, validate);
    }
    let body: unknown;
    try {
      body = response.json();
    } catch {
      throw new Error(`${label}: body is not JSON: ${response.body.slice(0, 200)}`);
    }
    if (!validate(body)) {
      throw new Error(`${label}: body does not match the OpenAPI schema: ${this.ajv.errorsText(validate.errors)}\n${response.body.slice(0, 500)}`);
    }
    if (response.statusCode >= 400) {
      const err = (body as { error?: { requestId?: string } }).error;
      if (!err || typeof err.requestId !== 'string') throw new Error(`${label}: error body without requestId`);
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
