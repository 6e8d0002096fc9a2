/**
 * What an erasure looks for in a stored JSON copy (docs/OPERATING.md, "Erasure"): the modules that own stored copies
 * (commands and events, webhook bodies, stored responses) find them by text with these, and the erasure judges each.
 */

/** A stored JSON copy: its row's key and its text. */
export interface StoredCopy<K> {
  readonly key: K;
  readonly text: string;
}

/** `like` pattern for text containing `value`; the values searched for (JSON around digits, uuids) hold no wildcard. */
export const containing = (value: string): string => `%${value}%`;
