import { describe, expect, it } from 'vitest';
import { StatementGroup } from '../../src/db/group-commit.ts';

/** A statement the test finishes by hand: the items it carried, and how to answer them. */
interface Sent {
  readonly items: readonly string[];
  readonly answer: () => void;
  readonly fail: (error: Error) => void;
}

function group(maxRunning = 2, maxItems = 4, gatherMs = 0) {
  const sent: Sent[] = [];
  const statements = new StatementGroup<string, string>({
    run: (items) =>
      new Promise((resolve, reject) => {
        sent.push({ items, answer: () => resolve(items.map((item) => `done ${item}`)), fail: reject });
      }),
    // An item `a:1` writes the row `a`.
    conflicts: (item) => [item.split(':')[0] ?? item],
    maxRunning,
    maxItems,
    gatherMs,
  });
  return { statements, sent };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a statement group', () => {
  it('sends a call at once while fewer than maxRunning statements are under way', async () => {
    const { statements, sent } = group();
    const first = statements.submit('a:1');
    const second = statements.submit('b:1');
    expect(sent.map((s) => s.items)).toEqual([['a:1'], ['b:1']]);
    sent.forEach((s) => s.answer());
    expect(await Promise.all([first, second])).toEqual(['done a:1', 'done b:1']);
    expect(sent).toHaveLength(2);
  });

  it('gathers the calls that arrive while the statements are under way into the next one, at most maxItems', async () => {
    const { statements, sent } = group(1, 3);
    const calls = ['a:1', 'b:1', 'c:1', 'd:1', 'e:1'].map((item) => statements.submit(item));
    expect(sent.map((s) => s.items)).toEqual([['a:1']]);
    sent[0]?.answer();
    await settle();
    expect(sent.map((s) => s.items)).toEqual([['a:1'], ['b:1', 'c:1', 'd:1']]);
    sent[1]?.answer();
    await settle();
    sent[2]?.answer();
    expect(await Promise.all(calls)).toEqual(['done a:1', 'done b:1', 'done c:1', 'done d:1', 'done e:1']);
    expect(sent.map((s) => s.items)).toEqual([['a:1'], ['b:1', 'c:1', 'd:1'], ['e:1']]);
  });

  it('never puts two calls that write one row in one statement: the later waits, in order', async () => {
    const { statements, sent } = group(1, 10);
    const calls = ['x:0', 'a:1', 'b:1', 'a:2', 'c:1', 'a:3'].map((item) => statements.submit(item));
    sent[0]?.answer();
    await settle();
    expect(sent[1]?.items).toEqual(['a:1', 'b:1', 'c:1']);
    sent[1]?.answer();
    await settle();
    expect(sent[2]?.items).toEqual(['a:2']);
    sent[2]?.answer();
    await settle();
    expect(sent[3]?.items).toEqual(['a:3']);
    sent[3]?.answer();
    expect(await Promise.all(calls)).toEqual(['done x:0', 'done a:1', 'done b:1', 'done a:2', 'done c:1', 'done a:3']);
  });

  it("a statement's failure fails its own calls only; the next statement still runs", async () => {
    const { statements, sent } = group(1, 10);
    const first = statements.submit('a:1');
    const later = [statements.submit('b:1'), statements.submit('c:1')];
    sent[0]?.fail(new Error('lost connection'));
    await expect(first).rejects.toThrow('lost connection');
    await settle();
    expect(sent[1]?.items).toEqual(['b:1', 'c:1']);
    sent[1]?.answer();
    expect(await Promise.all(later)).toEqual(['done b:1', 'done c:1']);
  });

  it('while callers are concurrent, a statement that would go short first waits gatherMs for company', async () => {
    const { statements, sent } = group(2, 10, 20);
    // A lone caller: each call after the last one's answer goes at once.
    for (const item of ['a:1', 'a:2']) {
      const call = statements.submit(item);
      expect(sent.at(-1)?.items).toEqual([item]);
      sent.at(-1)?.answer();
      await call;
    }
    // Concurrent callers: the call that arrives while another is unanswered waits, and the next ones join it.
    const first = statements.submit('b:1');
    expect(sent.at(-1)?.items).toEqual(['b:1']);
    const joined = [statements.submit('c:1'), statements.submit('d:1')];
    expect(sent).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(sent.at(-1)?.items).toEqual(['c:1', 'd:1']);
    sent.forEach((s) => s.answer());
    expect(await Promise.all([first, ...joined])).toEqual(['done b:1', 'done c:1', 'done d:1']);
  });
});
