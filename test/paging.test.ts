import { describe, expect, it } from 'vitest';
import { AppError } from '../src/shared/errors.ts';
import { cursorPair, timeCursor } from '../src/shared/paging.ts';

function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

interface Query {
  readonly limit?: number;
  readonly cursorTotalSeconds?: number;
  readonly cursorStaffId?: string;
}

describe('cursor pair', () => {
  const names = ['cursorTotalSeconds', 'cursorStaffId'] as const;
  const query = (value: Query): Query => value;

  it('is null when neither parameter is sent', () => {
    expect(cursorPair(query({ limit: 5 }), names, 'query')).toBeNull();
  });

  it('gives both values when both are sent', () => {
    expect(cursorPair(query({ cursorTotalSeconds: 0, cursorStaffId: 'a' }), names, 'query')).toEqual([0, 'a']);
  });

  it.each([
    ['the second', { cursorTotalSeconds: 60 }, 'query.cursorStaffId'],
    ['the first', { cursorStaffId: 'a' }, 'query.cursorTotalSeconds'],
  ])('is a 400 naming %s when only one is sent', (_which, sent, path) => {
    const error = thrown(() => cursorPair(query(sent), names, 'query'));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('`cursorTotalSeconds` and `cursorStaffId` must be sent together.');
    expect(error.details).toEqual({ issues: [{ path, message: 'is required with the other cursor parameter' }] });
  });
});

describe('a cursor of an instant and an id', () => {
  const pageCursor = (query: { cursorStartedAt?: string; cursorId?: string }) => timeCursor(query, 'cursorStartedAt');

  it('parses the start instant and keeps the id', () => {
    expect(pageCursor({ cursorStartedAt: '2026-03-11T12:00:00+01:00', cursorId: 'x' })).toEqual({
      at: Date.UTC(2026, 2, 11, 11),
      id: 'x',
    });
    expect(pageCursor({})).toBeNull();
  });

  it('names the querystring parameter that is missing', () => {
    const error = thrown(() => pageCursor({ cursorId: 'x' }));
    expect(error.details).toEqual({
      issues: [{ path: 'querystring.cursorStartedAt', message: 'is required with the other cursor parameter' }],
    });
    expect(error.message).toBe('`cursorStartedAt` and `cursorId` must be sent together.');
  });

  it('refuses a start that is no ISO 8601 date-time with an offset', () => {
    const error = thrown(() => pageCursor({ cursorStartedAt: 'yesterday', cursorId: 'x' }));
    expect(error.details).toEqual({
      issues: [{ path: 'querystring.cursorStartedAt', message: 'must be an ISO 8601 date-time with an offset' }],
    });
  });
});
