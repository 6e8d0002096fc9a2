import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ERROR_SCHEMA_ID, ErrorResponseSchema, errorBody } from '../../src/http/errors.ts';
import { errorResponse } from '../../src/http/openapi-responses.ts';
import { serializerFactory } from '../../src/http/serialization.ts';

// As the framework calls a serializer factory: the shared schemas by id, then one route response at a time.
const SHARED = { [ERROR_SCHEMA_ID]: ErrorResponseSchema };

function route(method: string, url: string, httpStatus: string, schema: unknown) {
  return { method, url, httpStatus, schema };
}

describe('response serializers', () => {
  it('writes every error body with one serializer, as the framework compiler writes it', () => {
    const compile = serializerFactory()(SHARED, {});
    const notFound = compile(route('GET', '/v1/shifts/:id', '404', errorResponse(404, ['not_found'])));
    const invalid = compile(route('POST', '/v1/shifts', '400', errorResponse(400, ['validation_failed', 'invalid_json'])));
    const otherApp = serializerFactory()(SHARED, {});
    expect(invalid).toBe(notFound);
    expect(otherApp(route('GET', '/v1/x', '429', errorResponse(429, ['rate_limited'])))).not.toBe(notFound);

    const reference = SerializerSelector()(SHARED, {})(route('POST', '/v1/shifts', '400', errorResponse(400, ['validation_failed'])));
    const bodies = [
      errorBody('req_0123456789abcdef', 'not_found', 'The shift was not found.'),
      errorBody('req_0123456789abcdef', 'validation_failed', 'The request is invalid.', {
        issues: [{ path: 'body.serverId', message: 'must be "a" or "b"' }],
      }),
      { error: { ...errorBody('req_0123456789abcdef', 'rate_limited', 'Slow down.').error, extra: 'not declared' } },
    ];
    for (const body of bodies) {
      expect(notFound(body)).toBe(reference(body));
      expect(JSON.parse(notFound(body))).toEqual(JSON.parse(reference(body)));
    }
    expect(JSON.parse(notFound(bodies[2]))).not.toHaveProperty('error.extra');
  });

  it('compiles a schema object once, for every route that declares it (a GET and its HEAD)', () => {
    const compile = serializerFactory()(SHARED, {});
    const schema = Type.Object({ id: Type.String(), count: Type.Integer() });
    const get = compile(route('GET', '/v1/things/:id', '200', schema));
    const head = compile(route('HEAD', '/v1/things/:id', '200', schema));
    const sameShape = compile(route('GET', '/v1/others/:id', '200', Type.Object({ id: Type.String(), count: Type.Integer() })));
    expect(head).toBe(get);
    expect(sameShape).not.toBe(get);
    expect(get({ id: 'a', count: 2, secret: 'x' })).toBe('{"id":"a","count":2}');
  });
});
