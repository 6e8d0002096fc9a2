import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cyclesOf, fileImports, moduleDrawing } from '../helpers/imports.ts';

const ARCHITECTURE = new URL('../../docs/ARCHITECTURE.md', import.meta.url);

/** The drawing docs/ARCHITECTURE.md shows: the fenced block after its "Modules and their direction" heading. */
function drawnInDocs(): string[] {
  const text = readFileSync(ARCHITECTURE, 'utf8');
  const section = text.slice(text.indexOf('## Modules and their direction'));
  const block = /```text\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.trimEnd().split('\n');
}

describe('modules and their direction', () => {
  it('no file of src/ imports itself through others (no import cycle)', () => {
    expect(cyclesOf(fileImports())).toEqual([]);
  });

  it('the modules import in one direction: each is drawn after everything it imports', () => {
    expect(() => moduleDrawing()).not.toThrow();
  });

  it('docs/ARCHITECTURE.md draws the modules as the code imports them', () => {
    expect(drawnInDocs(), 'run `npm run docs:generate` to redraw it').toEqual(moduleDrawing());
  });

  it('docs/ARCHITECTURE.md stays short enough to read first (at most 200 lines)', () => {
    expect(readFileSync(ARCHITECTURE, 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
  });
});
