import { describe, expect, it } from 'vitest';
import { traceStore } from '../../bench/trace-run.ts';

describe('benchmark trace: a real gateway on SQLite', () => {
  it("sees the shift routes in a heartbeat's files and not in GET /health's", async () => {
    const trace = await traceStore(
      'sqlite',
      { kinds: ['heartbeat'], repeats: 2, warmup: 20, waitMs: 200, postgresUrl: 'postgres://unused', keep: false },
      () => undefined,
    );
    const [health, heartbeat] = trace.kinds;
    expect(health?.kind).toBe('health');
    expect(heartbeat?.kind).toBe('heartbeat');
    expect(health?.every.length).toBeGreaterThan(0);
    expect(heartbeat?.every).toContain('src/features/activity/shifts/routes.ts');
    expect(heartbeat?.beyondReference).toContain('src/features/activity/shifts/routes.ts');
    expect(health?.any).not.toContain('src/features/activity/shifts/routes.ts');
  }, 60_000);
});
