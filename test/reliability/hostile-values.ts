/**
 * fast-check arbitraries for the values hostile requests carry: hostile strings (huge, unicode and
 * control-character, injection-looking) and JSON values of the wrong type (deeply nested, arrays for objects), and
 * plausible values by schema and by name (existing entities, valid ids, instants around the fixed clock) so
 * requests reach the lookups and state checks, mixed with hostile ones (numbers as strings). hostile-requests.ts
 * puts them into bodies, headers, query strings and path parameters.
 */
import fc from 'fast-check';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { GUILD_ID, SECOND_GUILD_ID, UNIVERSE_ID } from '../helpers/fixtures.ts';
import type { JsonSchema } from './served-routes.ts';
import type { World } from './world.ts';

// ---------------------------------------------------------------------------------------------------------
// Strings and JSON values
// ---------------------------------------------------------------------------------------------------------

const SPECIAL_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ufeff',
  '\u202eevil',
  '\u00e9\u0301',
  '\u{1f4a5}',
  '\r\n',
  '\t',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x10',
  '007',
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  '%00',
  '%2F',
  "'; drop table staff; --",
  '" or 1=1 --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  'wsk_test_',
  'Bearer x',
];

const controlCharacters = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)),
  minLength: 1,
  maxLength: 8,
});

const longString = fc
  .tuple(fc.integer({ min: 65, max: 6000 }), fc.constantFrom('x', '\u00e9', '\u{1f4a5}', '\u0000', ' '))
  .map(([length, unit]) => unit.repeat(length));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SPECIAL_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  controlCharacters,
  longString,
);

const deeplyNested: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 1, max: 200 }), fc.boolean())
  .map(([depth, asArray]) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i += 1) value = asArray ? [value] : { a: value };
    return value;
  });

/** A JSON value of any type for a property that expects something else. */
export const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.constantFrom(-1, 0, -0, 101, 100.0000001, 2 ** 53, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE, 1e21),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  deeplyNested,
);

// ---------------------------------------------------------------------------------------------------------
// Plausible values, by schema and by name
// ---------------------------------------------------------------------------------------------------------

export interface KnownValues {
  /** Values worth trying for a parameter or property of this name (existing entities, valid ids). */
  readonly byName: Readonly<Record<string, readonly string[]>>;
  readonly uuids: readonly string[];
}

export function knownValues(world: World): KnownValues {
  const { a, b, app2, submissions, shifts } = world;
  const staffGameIds = [a, b].flatMap((w) => Object.values(w.staff).map((s) => s.gameUserId));
  const chatIds = [a, b].flatMap((w) => Object.values(w.staff).map((s) => s.chatUserId ?? ''));
  const submissionIds = [...submissions.a.submitted, submissions.a.underReview, submissions.a.accepted, submissions.a.rejected, ...submissions.b.submitted];
  const shiftIds = Object.values(shifts);
  const staffIds = [a, b].flatMap((w) => Object.values(w.ids.staff));
  const departmentIds = [a, b].flatMap((w) => Object.values(w.ids.departments));
  const workspaceIds = [a.ids.workspaceId, b.ids.workspaceId];
  return {
    byName: {
      submissionId: submissionIds,
      shiftId: shiftIds,
      cursorId: shiftIds,
      gameUserId: staffGameIds,
      cursorStaffId: staffIds,
      departmentId: departmentIds,
      'x-service-workspace-id': workspaceIds,
      'x-chat-guild-id': [GUILD_ID, SECOND_GUILD_ID],
      'x-acting-chat-user-id': chatIds,
      universeId: [UNIVERSE_ID, '43'],
      placeId: ['7'],
      serverId: ['srv-1', 'srv-history'],
      period: ['week', 'month', 'day', 'year'],
      includeInactive: ['true', '1', 'false', 'yes'],
    },
    uuids: [...submissionIds, ...shiftIds, ...staffIds, ...departmentIds, ...workspaceIds, app2.applicationId],
  };
}

export function namedValues(known: KnownValues, name: string): readonly string[] | undefined {
  return Object.hasOwn(known.byName, name) ? known.byName[name] : undefined;
}

const MINUTE = 60_000;

/** Instants around the fixed clock: the last two days and a little into the future, in several notations. */
const instant = fc
  .tuple(
    fc.integer({ min: -48 * 60, max: 3 }),
    fc.constantFrom('Z', '+00:00', '+02:00', '-05:30', '.123Z', '.1234567Z'),
  )
  .map(([minutes, suffix]) => {
    const iso = new Date(DEFAULT_NOW + minutes * MINUTE).toISOString().slice(0, 19);
    return `${iso}${suffix}`;
  });

function schemaTypes(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return [...schema.type];
  return typeof schema.type === 'string' ? [schema.type] : [];
}

function isUuidSchema(schema: JsonSchema): boolean {
  return schema.format === 'uuid' || (schema.pattern ?? '').includes('[0-9a-fA-F]{8}');
}

/** A value the schema (and the world) makes likely to be accepted, as JSON would carry it. */
export function plausible(schema: JsonSchema, name: string, known: KnownValues): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const named = namedValues(known, name);
  const options: fc.Arbitrary<unknown>[] = [];
  if (named && named.length > 0) options.push(fc.constantFrom(...named));
  if (schema.format === 'date-time') options.push(instant);
  if (isUuidSchema(schema)) options.push(fc.constantFrom(...known.uuids), fc.uuid());
  for (const type of schemaTypes(schema)) {
    if (type === 'integer') {
      options.push(fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6) }));
    } else if (type === 'number') {
      options.push(fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true }));
    } else if (type === 'boolean') {
      options.push(fc.boolean());
    } else if (type === 'null') {
      options.push(fc.constant(null));
    } else if (type === 'object' && schema.properties) {
      options.push(plausibleObject(schema, known));
    } else if (type === 'string' && options.length === 0) {
      options.push(fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 20) }));
    }
  }
  return options.length > 0 ? fc.oneof(...options) : fc.string({ maxLength: 10 });
}

export function plausibleObject(schema: JsonSchema, known: KnownValues): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) model[name] = plausible(property, name, known);
  const requiredKeys = Object.keys(model).filter((k) => required.has(k));
  return fc.record(model, { requiredKeys });
}

/** Mostly plausible, sometimes hostile. */
export function mixedValue(schema: JsonSchema, name: string, known: KnownValues): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: plausible(schema, name, known) },
    { weight: 2, arbitrary: hostileJsonValue },
    // The right value, sent as a string (a number as text, a boolean as text).
    { weight: 1, arbitrary: plausible(schema, name, known).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) },
  );
}
