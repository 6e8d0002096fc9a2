import { isUuid } from '../shared/ids.ts';

/**
 * A kind of command-line value, declared once and used by every option and argument of that kind: what it must
 * be (for the message that refuses it) and how its text becomes the value, `undefined` when it is not one.
 */
export interface Kind<T> {
  readonly description: string;
  parse(raw: string): T | undefined;
}

/** Any text but the empty one (a file, a URL, a scope). */
export const text: Kind<string> = {
  description: 'a non-empty text',
  parse: (raw) => (raw === '' ? undefined : raw),
};

/** An id: a uuid in either case, passed on in lowercase (the case ids are stored in). */
export const uuid: Kind<string> = {
  description: 'a uuid',
  parse: (raw) => (isUuid(raw) ? raw.toLowerCase() : undefined),
};

/** One of a closed list of words (`test|live`). */
export function oneOf<const V extends readonly string[]>(values: V): Kind<V[number]> {
  return {
    description: `one of ${values.join(', ')}`,
    parse: (raw) => values.find((value) => value === raw),
  };
}

/** A non-negative integer written in digits, within `min` and `max` when given. */
export function wholeNumber(bounds: { readonly min?: number; readonly max?: number } = {}): Kind<number> {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = bounds;
  const range = bounds.max !== undefined ? ` from ${min} to ${max}` : bounds.min !== undefined ? ` of at least ${min}` : '';
  return {
    description: `a whole number${range}`,
    parse: (raw) => {
      if (!/^\d+$/.test(raw)) return undefined;
      const value = Number(raw);
      return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
    },
  };
}

const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A duration such as `8h`, `30m`, `90s` or `7d`, in seconds, from 1 s to `maxSeconds`. */
export function duration(maxSeconds: number): Kind<number> {
  return {
    description: `a duration such as 8h, 30m or 7d (at most ${maxSeconds / 86_400} days)`,
    parse: (raw) => {
      const match = /^(\d+)([smhd])$/.exec(raw);
      if (match === null) return undefined;
      const seconds = Number(match[1]) * (DURATION_UNITS[match[2] ?? ''] ?? 0);
      return seconds >= 1 && seconds <= maxSeconds ? seconds : undefined;
    },
  };
}
