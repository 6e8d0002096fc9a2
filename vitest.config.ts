import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';
import { probePrerequisites, WITHOUT_POSTGRES } from './test/helpers/prerequisites.ts';

/**
 * The unit suite: tests that need neither a database server nor a gateway process (pure rules, period
 * arithmetic, the SQLite driver in memory, the committed SQL snapshots, the TypeScript client's retry rules).
 * CI also runs it on the oldest supported Node.js line; `npm test` runs it with everything else.
 */
const UNIT = [
  'test/clock.test.ts',
  'test/config.test.ts',
  'test/cli-args.test.ts',
  'test/ids.test.ts',
  'test/paging.test.ts',
  'test/auth/keys/**/*.test.ts',
  'test/features/activity/periods/**/*.test.ts',
  'test/features/activity/shifts/rules.test.ts',
  'test/features/applications/answers.test.ts',
  'test/features/activity/reports/ranking-cache.test.ts',
  'test/features/erasure/scrub.test.ts',
  'test/db/statement-cache.test.ts',
  'test/db/sql-snapshots.test.ts',
  'test/clients/typescript/retry.test.ts',
  // Every bench test but those that start a gateway process (*-run.test.ts).
  'test/bench/**/!(*-run).test.ts',
];

/**
 * Tests that measure how the process keeps up under load (the SQLite checkpointer has to get its rounds in during a
 * burst of writes): they run alone, after everything else, so the rest of the suite does not take their cores.
 */
const ALONE = ['test/db/checkpointer.test.ts'];

export default defineConfig(async (): Promise<ViteUserConfig> => {
  // PostgreSQL, Redis, Chromium and Lua, probed once for the whole run (test/helpers/prerequisites.ts): the test
  // files read what was found through inject('prerequisites'), and a suite's PostgreSQL run is reported skipped
  // when no server answers. The integration project's global setup prints it, and fails the run under CI=true.
  const prerequisites = await probePrerequisites();
  return {
    resolve: {
      // The TypeScript client's examples import it by its package name; in this repository that is its source, as
      // the `workspace-gateway-source` condition of its package.json says (tsconfig.json, and `node --conditions`).
      alias: [{ find: /^@workspace-gateway\/client$/, replacement: fileURLToPath(new URL('clients/typescript/src/index.ts', import.meta.url)) }],
    },
    test: {
      provide: { prerequisites },
      ...(prerequisites.postgres ? {} : { testNamePattern: WITHOUT_POSTGRES }),
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: 'forks',
      maxWorkers: 2,
      reporters: ['default'],
      projects: [
        { extends: true, test: { name: 'unit', include: UNIT, sequence: { groupOrder: 0 } } },
        {
          extends: true,
          test: {
            name: 'integration',
            include: ['test/**/*.test.ts'],
            exclude: [...configDefaults.exclude, ...UNIT, ...ALONE],
            globalSetup: ['test/helpers/global-setup.ts'],
            sequence: { groupOrder: 0 },
          },
        },
        { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
      ],
    },
  };
});
