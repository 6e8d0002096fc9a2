// Actor rights are stored as JSON text columns; these read them back, dropping anything malformed.

/** A JSON array column (scopes, permissions, universe ids): its strings, anything else dropped. */
export function parseStringArray(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A JSON object column of flags (an application's features): its boolean entries. */
export function parseFlags(json: string): Record<string, boolean> {
  const value: unknown = JSON.parse(json);
  const flags: Record<string, boolean> = {};
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (typeof v === 'boolean') flags[k] = v;
  }
  return flags;
}
