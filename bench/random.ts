const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex4 = (n: number) => (HEX[(n >>> 8) & 0xff] ?? '') + (HEX[n & 0xff] ?? '');
const hex8 = (n: number) => hex4(n >>> 16) + hex4(n & 0xffff);

/**
 * A small seeded pseudo-random source, so one seed always yields the same dataset (sfc32, seeded through
 * splitmix32). Not for secrets that guard anything: the benchmark's keys only open a throw-away database.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i += 1) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** A version-4 uuid drawn from this source. */
  uuid(): string {
    const a = this.uint32();
    const b = this.uint32();
    const c = this.uint32();
    const d = this.uint32();
    return (
      hex8(a) +
      '-' +
      hex4(b >>> 16) +
      '-' +
      hex4(((b & 0x0fff) | 0x4000) >>> 0) +
      '-' +
      hex4((((c >>> 16) & 0x3fff) | 0x8000) >>> 0) +
      '-' +
      hex4(c & 0xffff) +
      hex8(d)
    );
  }

  /** `length` base62 characters (API key secrets of the generated dataset). */
  base62(length: number): string {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    let out = '';
    while (out.length < length) out += alphabet[this.uint32() % 62];
    return out;
  }
}

/** Draws indexes in proportion to fixed weights (cumulative table, binary search). */
export class WeightedSampler {
  private readonly cumulative: Float64Array;

  constructor(weights: readonly number[]) {
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((weight, i) => {
      sum += Math.max(0, weight);
      this.cumulative[i] = sum;
    });
    if (sum <= 0) throw new Error('WeightedSampler needs a positive weight');
  }

  sample(random: Random): number {
    const total = this.cumulative[this.cumulative.length - 1] ?? 0;
    const target = random.next() * total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] ?? 0) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
