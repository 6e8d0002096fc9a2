/** A fresh, empty database for a one-off measurement (prune.ts, storage.ts): a temp SQLite file or a PostgreSQL schema. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type ScratchKind = 'sqlite' | 'postgres';

export const SCRATCH_POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

export async function scratchDatabase(kind: ScratchKind, name: string): Promise<ScratchDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `wsg-bench-${name}-`));
    return { url: `sqlite:${join(dir, 'gateway.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `wsg_bench_${name}_${process.pid}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: SCRATCH_POSTGRES_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema ${schema}`);
  const url = new URL(SCRATCH_POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => admin(`drop schema if exists ${schema} cascade`) };
}
