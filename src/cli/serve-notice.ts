// What `serve` logs once it listens: the database it opened, and what to do next when nothing is provisioned in it.
import { listWorkspaceIds } from '../features/activity/totals/repository.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/types.ts';

/** The database URL with its password masked, as it may be printed. */
export function printableDatabaseUrl(url: string): string {
  if (!/^postgres(ql)?:/.test(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

/** Logs the database `serve` opened (info) and, when it holds no workspace yet, what to do (warn). */
export async function logServeNotice(db: Executor, log: FastifyBaseLogger, databaseUrl: string): Promise<void> {
  const database = printableDatabaseUrl(databaseUrl);
  log.info({ database }, `serving on database ${database}`);
  if ((await listWorkspaceIds(db)).length === 0) {
    log.warn(
      'nothing is provisioned in this database yet: apply a provisioning document with ' +
        '`workspace-gateway provision <file.json>` (the same DATABASE_URL; docs/OPERATING.md, "Provisioning"), ' +
        'or try `workspace-gateway demo`',
    );
  }
}
