/**
 * The routes of the served OpenAPI document, as the reliability tests enumerate them: a route added to the app
 * is fuzzed, attacked and logged without touching these tests (and the authorization matrix fails until it has
 * its cases).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { openStore } from '../../src/db/connect.ts';
import { DEFAULT_NOW, testConfig } from '../helpers/app.ts';

export type JsonSchema = {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
};

export interface Parameter {
  readonly in: 'path' | 'query' | 'header';
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export type Security = 'none' | 'apiKey' | 'dashboardToken';

export interface ServedRoute {
  /** `METHOD /path/{param}`: the key of the authorization matrix. */
  readonly key: string;
  readonly method: string;
  readonly template: string;
  readonly security: Security;
  readonly parameters: readonly Parameter[];
  /** The JSON request body, when the operation takes one. */
  readonly body: { readonly required: boolean; readonly schema: JsonSchema } | null;
}

interface OpenApiOperation {
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

function securityOf(operation: OpenApiOperation): Security {
  const names = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  // A read that takes a key or a member's token (the leaderboard, the active list) is an API-key route whose
  // attacks know that a valid dashboard token is accepted there (authorization/credentials.ts).
  if (names.includes('apiKey')) return 'apiKey';
  if (names.includes('dashboardToken')) return 'dashboardToken';
  return 'none';
}

export function routesOf(document: OpenApiDocument): ServedRoute[] {
  const routes: ServedRoute[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const json = operation.requestBody?.content?.['application/json']?.schema;
      routes.push({
        key: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        security: securityOf(operation),
        parameters: (operation.parameters ?? []).map((p) => ({
          in: p.in as Parameter['in'],
          name: p.name,
          required: p.required ?? false,
          schema: p.schema ?? {},
        })),
        body: json ? { required: operation.requestBody?.required ?? false, schema: json } : null,
      });
    }
  }
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}

/** The routes `app` serves, read from its GET /openapi.json. */
export async function servedRoutesOf(app: FastifyInstance): Promise<ServedRoute[]> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  return routesOf(res.json() as OpenApiDocument);
}

/**
 * The served routes, read once at collection time so each route gets its own test. The document does not depend
 * on the store, so an empty in-memory database serves it.
 */
export async function servedRoutes(): Promise<ServedRoute[]> {
  const store = openStore('sqlite::memory:');
  const app = await buildApp({ config: testConfig(), store, clock: new ManualClock(DEFAULT_NOW), logger: false });
  try {
    return await servedRoutesOf(app);
  } finally {
    await app.close();
    await store.close();
  }
}

/** The template with its `{param}` segments filled in (values are inserted as given: encode them first). */
export function fillPath(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return value;
  });
}

export function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}
