/** Time is a dependency: services read it from here so tests can fix or move it. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private current: number;
  constructor(current: number) {
    this.current = current;
  }
  now(): number {
    return this.current;
  }
  set(epochMs: number): void {
    this.current = epochMs;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

// Formatting a Date costs more than a microsecond and responses format several instants, mostly within the
// same minute: that minute's text is kept and only seconds and milliseconds are formatted.
let cachedMinute = Number.NaN;
let cachedMinuteText = '';

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

export function toIso(epochMs: number): string {
  const minute = Math.floor(epochMs / 60_000);
  if (minute !== cachedMinute || !Number.isInteger(epochMs)) {
    const iso = new Date(epochMs).toISOString();
    if (Number.isInteger(epochMs) && iso.length === 24) {
      cachedMinute = minute;
      cachedMinuteText = iso.slice(0, 17);
    }
    return iso;
  }
  const withinMinute = epochMs - minute * 60_000;
  return `${cachedMinuteText}${pad(Math.floor(withinMinute / 1000), 2)}.${pad(withinMinute % 1000, 3)}Z`;
}

export function toIsoOrNull(epochMs: number | null): string | null {
  return epochMs === null ? null : toIso(epochMs);
}
