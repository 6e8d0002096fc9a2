import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeyEnvironment, generateApiKey, hashApiKey, isApiKeyFormat } from '../../../src/auth/keys/api-key.ts';

const SECRET_32 = 'A'.repeat(16) + '0123456789abcdef';

describe('API key format', () => {
  it.each([
    [`wsk_test_${SECRET_32}`, 'test'],
    [`wsk_live_${SECRET_32}z`, 'live'],
  ])('reads the environment from the prefix of %s', (key, environment) => {
    expect(isApiKeyFormat(key)).toBe(true);
    expect(apiKeyEnvironment(key)).toBe(environment);
  });

  it.each([
    ['a secret shorter than 32 characters', `wsk_test_${SECRET_32.slice(1)}`],
    ['an unknown environment', `wsk_prod_${SECRET_32}`],
    ['a character outside base62', `wsk_live_${SECRET_32}-`],
    ['no prefix', SECRET_32],
    ['a dashboard token', 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln'],
  ])('refuses %s', (_label, token) => {
    expect(isApiKeyFormat(token)).toBe(false);
    expect(apiKeyEnvironment(token)).toBeNull();
  });

  it('stores a key as the hex SHA-256 of the whole key', () => {
    const key = `wsk_test_${SECRET_32}`;
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
  });

  it('generates well-formed, distinct keys of the asked environment', () => {
    const keys = [generateApiKey('live'), generateApiKey('live'), generateApiKey('test')];
    expect(keys.map(apiKeyEnvironment)).toEqual(['live', 'live', 'test']);
    expect(keys[0]).toMatch(/^wsk_live_[0-9A-Za-z]{40}$/);
    expect(new Set(keys).size).toBe(3);
  });
});
