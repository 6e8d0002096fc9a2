import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { UUID_PATTERN } from '../shared/ids.ts';
import { jsonPath, type ProvisioningIssue } from './errors.ts';
import { ProvisioningDocumentSchema, SLUG_PATTERN, type ProvisioningDocument } from './schema.ts';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [UUID_PATTERN]: 'must be a UUID',
  [SLUG_PATTERN]: 'must be a slug: lowercase letters and digits in groups joined by single hyphens',
};

const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  'date-time': 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-01T00:00:00Z',
};

let compiled: ValidateFunction | undefined;

/** Compiled once on first use: a pure function of the schema. */
function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, coerceTypes: false, useDefaults: false });
    addFormats(ajv);
    compiled = ajv.compile(ProvisioningDocumentSchema);
  }
  return compiled;
}

/** JSON-pointer segments of `instancePath`, with array indices as numbers (read off the data itself). */
function pointerSegments(pointer: string, data: unknown): Array<string | number> {
  if (pointer === '') return [];
  const segments: Array<string | number> = [];
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      segments.push(Number(key));
      node = node[Number(key)];
    } else {
      segments.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return segments;
}

function knownProperties(error: ErrorObject): string[] {
  const parent = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(parent?.properties ?? {});
}

function toIssue(error: ErrorObject, data: unknown): ProvisioningIssue {
  const at = pointerSegments(error.instancePath, data);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: jsonPath(...at, String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties': {
      const known = knownProperties(error);
      const hint = known.length > 0 ? ` (known properties: ${known.join(', ')})` : '';
      return { path: jsonPath(...at, String(params.additionalProperty)), message: `is not a known property${hint}` };
    }
    case 'enum':
      return { path: jsonPath(...at), message: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      return { path: jsonPath(...at), message: `must be ${types.join(' or ')}` };
    }
    case 'pattern':
      return { path: jsonPath(...at), message: PATTERN_MESSAGES[String(params.pattern)] ?? `must match ${error.schema}` };
    case 'format':
      return { path: jsonPath(...at), message: FORMAT_MESSAGES[String(params.format)] ?? `must be a ${error.schema}` };
    case 'uniqueItems':
      return { path: jsonPath(...at), message: 'must not contain duplicates' };
    default:
      return { path: jsonPath(...at), message: error.message ?? 'is invalid' };
  }
}

function dedupe(issues: ProvisioningIssue[]): ProvisioningIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export type StructureResult =
  | { readonly ok: true; readonly document: ProvisioningDocument }
  | { readonly ok: false; readonly issues: ProvisioningIssue[] };

/** Structural validation against the TypeBox schema, every problem reported with its JSON path. */
export function validateStructure(input: unknown): StructureResult {
  const validate = validator();
  if (validate(input)) return { ok: true, document: input as ProvisioningDocument };
  return { ok: false, issues: dedupe((validate.errors ?? []).map((error) => toIssue(error, input))) };
}
