import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own lint configuration, run on source held in memory under a chosen file name: the layering
// rules must reject each deliberate violation and accept the same file importing what it may.
const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function layeringErrors(filePath: string, specifier: string): Promise<string[]> {
  const code = `import { used } from '${specifier}';\n\nexport const value = used;\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const rejected: ReadonlyArray<readonly [rule: string, file: string, specifier: string]> = [
  ['a service never imports Fastify', 'src/features/activity/shifts/service.ts', 'fastify'],
  ['a service never imports a Fastify plugin', 'src/features/activity/reports/service.ts', '@fastify/swagger'],
  ['a service never imports src/http', 'src/features/applications/review/service.ts', '../../../http/errors.js'],
  ['a service never imports the route hook', 'src/features/applications/review/service.ts', '../../../auth/route-auth.js'],
  ['a time-off service never imports the route hook', 'src/features/time-off/decision-service.ts', '../../auth/route-auth.ts'],
  ['the store never imports a feature', 'src/db/example.ts', '../features/shifts/service.js'],
  ['a migration never imports a feature', 'src/db/migrations/example.ts', '../../features/staff/profiles.js'],
  ['the store never imports Fastify', 'src/db/example.ts', 'fastify'],
  ['the store never imports src/http', 'src/db/example.ts', '../http/errors.js'],
  ['idempotency never imports a feature', 'src/idempotency/example.ts', '../features/shifts/repository.js'],
  ['idempotency never imports Fastify', 'src/idempotency/example.ts', 'fastify'],
  ['idempotency never imports src/http', 'src/idempotency/example.ts', '../http/errors.js'],
  ['keys never import a feature', 'src/auth/keys/example.ts', '../../features/workspaces/workspace.js'],
  ['keys never import Fastify', 'src/auth/keys/example.ts', 'fastify'],
  ['keys never import src/http', 'src/auth/keys/example.ts', '../../http/errors.js'],
  ['memberships never import a feature', 'src/auth/members/repository.ts', '../../features/staff/profiles.js'],
  ['memberships never import src/http', 'src/auth/members/repository.ts', '../../http/errors.js'],
  ['the authenticators never import Fastify', 'src/auth/dashboard-auth.ts', 'fastify'],
  ['the route hook never imports src/http', 'src/auth/route-auth.ts', '../http/rate-limit.ts'],
  ['the route hook never imports a feature', 'src/auth/route-auth.ts', '../features/staff/profiles.ts'],
  ['the journal never imports a feature', 'src/journal/journal.ts', '../features/staff/profiles.ts'],
  ['the outbox never imports a feature', 'src/webhooks/outbox.ts', '../features/staff/profiles.ts'],
  ['the outbox never imports src/http', 'src/webhooks/outbox.ts', '../http/errors.ts'],
  ["a feature's service never imports another feature's repository", 'src/features/activity/shifts/service.ts', '../staff/repository.ts'],
  ["a feature's module never imports another feature's repository", 'src/features/activity/reports/report-arithmetic.ts', '../shifts/repository.ts'],
  ["a feature's repository never imports another's", 'src/features/activity/shifts/repository.ts', '../../features/workspaces/repository.ts'],
  ['whatever the importing module is named', 'src/features/activity/reports/ranking-cache.ts', '../totals/repository.ts'],
  ['whatever the repository module is named', 'src/features/activity/reports/service.ts', '../shifts/batch-repository.ts'],
  ['a repository imported without its extension', 'src/features/activity/reports/service.ts', '../totals/repository'],
  ['provisioning never imports src/http', 'src/provisioning/example.ts', '../http/authentication.js'],
  ['provisioning never imports Fastify', 'src/provisioning/example.ts', 'fastify'],
  ['the background thread never imports Fastify', 'src/background/example.ts', 'fastify'],
  ['the background thread never imports src/http', 'src/background/example.ts', '../http/errors.js'],
  ['the background thread never imports a feature', 'src/background/worker.ts', '../features/ranks/sync/sync.ts'],
];

const accepted: ReadonlyArray<readonly [rule: string, file: string, specifier: string]> = [
  ['a feature imports its own repository', 'src/features/activity/shifts/service.ts', './repository.ts'],
  ['a feature imports its own repository module of another name', 'src/features/activity/shifts/batch-service.ts', './batch-repository.ts'],
  ["a feature imports another's shared read module", 'src/features/activity/shifts/service.ts', '../staff/profiles.ts'],
  ["a feature imports another's service", 'src/features/activity/reports/service.ts', '../totals/service.ts'],
  ['a service imports the store', 'src/features/activity/shifts/service.ts', '../../db/types.js'],
  ['routes import Fastify', 'src/features/activity/shifts/routes.ts', 'fastify'],
  ['routes import src/http', 'src/features/activity/shifts/routes.ts', '../../../http/envelope.js'],
  ['routes import the route hook', 'src/features/activity/shifts/routes.ts', '../../../auth/route-auth.js'],
  ['the route hook imports Fastify', 'src/auth/route-auth.ts', 'fastify'],
  ['the store imports its own modules', 'src/db/example.ts', './types.js'],
  ['idempotency imports the store', 'src/idempotency/example.ts', '../db/types.js'],
  ['keys import the shared id helpers', 'src/auth/keys/example.ts', '../../shared/ids.js'],
  ['provisioning imports keys', 'src/provisioning/example.ts', '../auth/keys/api-key.js'],
  ['HTTP glue imports Fastify', 'src/http/example.ts', 'fastify'],
  ['the outbox runs its sender on the background thread', 'src/webhooks/sender-thread.ts', '../background/thread.ts'],
  ["the dashboard authenticator reads the users' memberships", 'src/auth/dashboard-auth.ts', './members/repository.ts'],
  ['the store starts its checkpointer on the background thread', 'src/db/checkpointer.ts', '../background/thread.ts'],
];

describe('lint: layering', () => {
  it.each(rejected)('%s (%s imports %s)', async (_rule, file, specifier) => {
    expect(await layeringErrors(file, specifier)).toHaveLength(1);
  });

  it.each(accepted)('%s (%s imports %s)', async (_rule, file, specifier) => {
    expect(await layeringErrors(file, specifier)).toEqual([]);
  });

  it('names the rule broken and the way around it', async () => {
    const [message] = await layeringErrors('src/features/activity/shifts/service.ts', '../staff/repository.ts');
    expect(message).toContain('shared read module');
  });
});
