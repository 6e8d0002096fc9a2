/**
 * The PostgreSQL statements and transactions a gateway sends, counted in its process by `npm run bench:trace`
 * (coverage-probe.ts wraps the `pg` client's `query`). Pure, so the probe and the tests share it.
 *
 * A statement is one call of `Client.query`, one round trip to the server (`begin`, `commit` and savepoints
 * included). A transaction is an explicit one (`begin` … `commit`/`rollback`) or a statement sent outside any,
 * which PostgreSQL runs as a transaction of its own.
 */

export interface StatementCounts {
  readonly statements: number;
  readonly transactions: number;
  /** The statements' texts, in order, each on one line and cut at TEXT_CHARS (the first MAX_TEXTS of them). */
  readonly texts: readonly string[];
}

export const NO_STATEMENTS: StatementCounts = { statements: 0, transactions: 0, texts: [] };

const TEXT_CHARS = 160;
const MAX_TEXTS = 100;

/** What a statement's text does to its connection's transaction. */
export function transactionEffect(text: string): 'begin' | 'end' | 'none' {
  const head = text.trimStart().slice(0, 24).toLowerCase();
  if (/^(begin|start transaction)\b/.test(head)) return 'begin';
  // `rollback to savepoint` stays inside the transaction.
  if (/^(commit|end)\b/.test(head) || (/^rollback\b/.test(head) && !/^rollback\s+to\b/.test(head))) return 'end';
  return 'none';
}

/** Counts statements per connection (a key each) and the transactions they make; `take` reads and restarts. */
export class StatementCounter {
  private readonly open = new WeakSet<object>();
  private statements = 0;
  private transactions = 0;
  private texts: string[] = [];

  /** One statement sent on `connection`. */
  count(connection: object, text: string): void {
    this.statements += 1;
    if (this.texts.length < MAX_TEXTS) this.texts.push(text.replace(/\s+/g, ' ').trim().slice(0, TEXT_CHARS));
    const effect = transactionEffect(text);
    if (effect === 'begin') {
      this.transactions += 1;
      this.open.add(connection);
    } else if (effect === 'end') {
      this.open.delete(connection);
    } else if (!this.open.has(connection)) {
      this.transactions += 1;
    }
  }

  take(): StatementCounts {
    const counts = { statements: this.statements, transactions: this.transactions, texts: this.texts };
    this.statements = 0;
    this.transactions = 0;
    this.texts = [];
    return counts;
  }
}

/** The text of what `Client.query` was called with: a string, or a query config or submittable with `text`. */
export function queryText(first: unknown): string {
  if (typeof first === 'string') return first;
  if (typeof first === 'object' && first !== null && typeof (first as { text?: unknown }).text === 'string') {
    return (first as { text: string }).text;
  }
  return '';
}
