import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { isErrorResponse } from './openapi-responses.ts';

type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * Response serializers, compiled once per schema rather than once per route and status. The framework compiles a
 * serializer for every response schema of every route, its HEAD twin included, and keeps each one's generated
 * source, most of them for the error body, which every error status of every route declares with the same `$ref`
 * (only the description and the codes it documents differ). One serializer writes every error body, and a route's
 * HEAD twin reuses its GET's: a tenth as many compiled, and a smaller idle heap (docs/BENCHMARKS.md, "Memory").
 * The output is the same: each serializer is compiled from the
 * same schema by the framework's own compiler. Keyed by the schema object, not its content: two routes share a
 * serializer only where they declare the same object.
 */
export function serializerFactory(): SerializerFactory {
  const compiled = new WeakMap<object, Serializer>();
  let errorBody: Serializer | undefined;
  const selector = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = selector(externalSchemas, options);
    return (route) => {
      const { schema } = route;
      if (isErrorResponse(schema)) return (errorBody ??= compile(route));
      if (typeof schema !== 'object' || schema === null) return compile(route);
      let serializer = compiled.get(schema);
      if (serializer === undefined) {
        serializer = compile(route);
        compiled.set(schema, serializer);
      }
      return serializer;
    };
  };
}
