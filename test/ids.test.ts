import { describe, expect, it } from 'vitest';
import { newRequestId, newTimeOrderedId, randomBase62, sha256Hex } from '../src/shared/ids.ts';

describe('random ids', () => {
  it('have the requested length and only base62 characters, across pool refills', () => {
    for (const length of [1, 20, 40, 333, 5000]) {
      const value = randomBase62(length);
      expect(value).toHaveLength(length);
      expect(value).toMatch(/^[0-9A-Za-z]+$/);
    }
  });

  it('request ids do not repeat', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newRequestId()));
    expect(ids.size).toBe(20_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(/^req_[0-9A-Za-z]{20}$/);
  });

  it('time-ordered ids are version 7 uuids that sort in the order they were made, without repeats', async () => {
    const first = Array.from({ length: 5_000 }, () => newTimeOrderedId());
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = newTimeOrderedId();
    for (const id of first.slice(0, 100)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(first).size).toBe(first.length);
    expect([...first].sort()).toEqual(first);
    for (const id of first) expect(id < later).toBe(true);
  });

  it('draw every character about equally often (no modulo bias)', () => {
    const sample = randomBase62(620_000);
    const counts = new Map<string, number>();
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 10,000 each; a chi-square over 61 degrees of freedom stays far below 150 unless biased
    // (a modulo-biased draw over all 256 byte values gives about 4,000 here).
    let chi = 0;
    for (const n of counts.values()) chi += (n - 10_000) ** 2 / 10_000;
    expect(chi).toBeLessThan(150);
  });
});

describe('sha256Hex', () => {
  it('gives the standard digests', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});
