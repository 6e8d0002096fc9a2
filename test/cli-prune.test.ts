import { describe, expect, it } from 'vitest';
import { progressReporter } from '../src/cli/prune.ts';

describe('prune progress on stderr', () => {
  it('says nothing in the first second, then a line as each table is done and every five seconds within one', () => {
    let now = 0;
    const lines: string[] = [];
    const report = progressReporter((line) => lines.push(line), () => now);
    report('webhook_attempts', 500, false);
    now = 900;
    report('webhook_attempts', 700, true);
    expect(lines).toEqual([]);
    now = 1_200;
    report('webhook_deliveries', 500, false);
    report('webhook_deliveries', 800, true);
    now = 3_000;
    report('events', 500, false);
    now = 6_300;
    report('events', 1_000, false);
    now = 6_400;
    report('events', 1_500, false);
    report('events', 1_600, true);
    expect(lines).toEqual([
      'prune: webhook_deliveries: 800 deleted, done (1.2 s)\n',
      'prune: events: 1000 deleted so far (6.3 s)\n',
      'prune: events: 1600 deleted, done (6.4 s)\n',
    ]);
  });
});
