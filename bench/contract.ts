/**
 * Checks a sample response of each scenario against the OpenAPI document the server under test serves: the
 * status must be documented and the body must match its schema. Scenario checks add the semantics on top.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { JsonResponse } from './http.ts';

const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>;
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

export class ResponseContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  private readonly document: OpenApiDocument;
  constructor(document: OpenApiDocument) {
    this.document = document;
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, 'openapi');
  }

  /**
   * Throws unless `response` is a documented answer of the operation at `template` (an OpenAPI path such as
   * `/v1/activity/shifts/{shiftId}/heartbeat`) with status `expectedStatus` and a body matching its schema.
   */
  check(label: string, method: string, template: string, response: JsonResponse, expectedStatus = 200): void {
    if (response.status !== expectedStatus) {
      throw new Error(`${label}: expected status ${expectedStatus}, got ${response.status}: ${response.text.slice(0, 500)}`);
    }
    const operation = this.document.paths[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${label}: ${method} ${template} is not in the served OpenAPI document`);
    const status = String(response.status);
    const content = operation.responses?.[status]?.content;
    if (!content) throw new Error(`${label}: status ${status} of ${method} ${template} is not documented`);
    const pointer = `openapi#/paths/${escapePointer(template)}/${method.toLowerCase()}/responses/${status}/content/${escapePointer('application/json')}/schema`;
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(pointer);
      if (!validate) throw new Error(`${label}: no schema at ${pointer}`);
      this.validators.set(pointer, validate);
    }
    if (!validate(response.body)) {
      throw new Error(
        `${label}: the body does not match the OpenAPI schema: ${this.ajv.errorsText(validate.errors)}\n${response.text.slice(0, 500)}`,
      );
    }
  }
}
