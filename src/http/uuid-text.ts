import { Type, type StringOptions } from '@sinclair/typebox';
import type { KeywordDefinition } from 'ajv';
import { isUuid } from '../shared/ids.ts';

/**
 * Schema keyword of request text that names something by uuid (a path parameter, a query parameter, a body
 * property): a uuid is read in lower case, once, as the request is validated, so every lookup, comparison and
 * cursor sees one spelling (ids are stored in lower case; a uuid names the same thing in any case). Text that is
 * not a uuid is left as sent, for the route to judge (a path parameter that is no uuid names nothing: 404).
 */
export const UUID_TEXT_KEYWORD = 'x-uuid-case-insensitive';

/** A request string carrying a uuid (any case), read in lower case; add `format: 'uuid'` to require one. */
export function UuidText(options: StringOptions = {}) {
  return Type.String({ ...options, [UUID_TEXT_KEYWORD]: true });
}

interface DataContext {
  readonly parentData?: unknown;
  readonly parentDataProperty?: string | number;
}

/** The Ajv definition of the keyword (registered on every request validator, src/http/validation.ts). */
export const uuidTextKeyword: KeywordDefinition = {
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
