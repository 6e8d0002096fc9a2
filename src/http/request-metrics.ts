import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The route label of requests that matched no route: a fixed value, never the URL a client made up. */
export const UNMATCHED_ROUTE = 'unmatched';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface RequestObserver {
  observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
}

function routeLabel(request: FastifyRequest): string {
  if (request.is404) return UNMATCHED_ROUTE;
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}

/** Counts and times every answered request by method, route pattern and status. */
export function registerRequestMetrics(app: FastifyInstance, observer: RequestObserver): void {
  app.addHook('onResponse', async (request, reply) => {
    const method = KNOWN_METHODS.has(request.method) ? request.method : 'OTHER';
    observer.observeRequest(
      { method, route: routeLabel(request), status: reply.statusCode },
      reply.elapsedTime / 1000,
    );
  });
}
