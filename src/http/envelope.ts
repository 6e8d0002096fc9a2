import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';

export interface Meta {
  requestId: string;
  correlationId: string;
}

export const MetaSchema = Type.Object({
  requestId: Type.String({ description: 'Request id of the response that carries it (on a replay, the original).' }),
  correlationId: Type.String({ description: 'X-Correlation-Id when sent, else the request id.' }),
});

export function envelopeSchema<T extends TSchema>(data: T) {
  return Type.Object({ data, meta: MetaSchema });
}

export function dataSchema<T extends TSchema>(data: T) {
  return Type.Object({ data });
}

export function envelope<T>(request: FastifyRequest, data: T): { data: T; meta: Meta } {
  return { data, meta: { requestId: request.id, correlationId: request.correlationId || request.id } };
}
