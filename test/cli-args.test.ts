import { describe, expect, it } from 'vitest';
import { optional, parseCommand, repeated, required, UsageError } from '../src/cli/args.ts';
import { oneOf, text, uuid, wholeNumber } from '../src/cli/values.ts';

const ID = '8A0F3F4E-1D7B-4C55-9A51-0D5E2B7C0004';

/** The message of the `UsageError` that `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('expected a UsageError');
}

describe('command arguments', () => {
  it('reads the configuration options in both spellings, on every command', () => {
    expect(parseCommand('serve', ['--database-url', 'sqlite:x.db', '--port=9', '--host', '::1'])).toEqual({
      values: {},
      positional: undefined,
      overrides: { databaseUrl: 'sqlite:x.db', port: '9', host: '::1' },
    });
    expect(parseCommand('migrate', []).overrides).toEqual({ databaseUrl: undefined, port: undefined, host: undefined });
  });

  it('checks each value by its kind and returns it typed', () => {
    const parsed = parseCommand('keys create', ['--application', ID, '--environment=live', '--limit', '7'], {
      options: {
        application: required(uuid),
        environment: required(oneOf(['test', 'live'])),
        limit: optional(wholeNumber({ min: 1, max: 10 })),
        scope: repeated(text),
      },
    });
    expect(parsed.values).toEqual({ application: ID.toLowerCase(), environment: 'live', limit: 7, scope: [] });
  });

  it('collects a repeated option in order, in both spellings', () => {
    const { values } = parseCommand('keys create', ['--scope', 'activity:read', '--port', '1', '--scope=staff:read'], {
      options: { scope: repeated(text) },
    });
    expect(values.scope).toEqual(['activity:read', 'staff:read']);
  });

  it('takes the one positional argument a command declares, checked by its kind', () => {
    const spec = { positional: { name: 'key id', kind: uuid } };
    expect(parseCommand('keys revoke', [ID, '--database-url=sqlite:x.db'], spec).positional).toBe(ID.toLowerCase());
    expect(refusal(() => parseCommand('keys revoke', [], spec))).toBe('keys revoke needs exactly one key id');
    expect(refusal(() => parseCommand('keys revoke', [ID, ID], spec))).toBe('keys revoke needs exactly one key id');
    expect(refusal(() => parseCommand('keys revoke', ['abc'], spec))).toBe('the key id must be a uuid, got "abc"');
    expect(refusal(() => parseCommand('migrate', ['extra']))).toBe('migrate takes no arguments, got "extra"');
  });

  it('refuses an option the command does not take, naming it', () => {
    expect(refusal(() => parseCommand('serve', ['--verbose']))).toBe('serve takes no --verbose');
    expect(refusal(() => parseCommand('serve', ['-v']))).toBe('serve takes no -v');
    expect(refusal(() => parseCommand('migrate', ['--workspace=x']))).toBe('migrate takes no --workspace');
  });

  it('refuses an option without a value, or with an empty one', () => {
    const options = { workspace: optional(uuid) };
    expect(refusal(() => parseCommand('rebuild-totals', ['--workspace'], { options }))).toBe('--workspace needs a value');
    expect(refusal(() => parseCommand('serve', ['--port']))).toBe('--port needs a value');
    expect(refusal(() => parseCommand('serve', ['--port='], {}))).toBe('--port needs a value');
    // A value that looks like an option is refused by parseArgs itself, with its hint on how to give one.
    expect(refusal(() => parseCommand('serve', ['--port', '--host', 'x']))).toMatch(/'--port' argument is ambiguous/);
  });

  it('refuses a single-valued option given twice', () => {
    const options = { application: optional(uuid) };
    expect(refusal(() => parseCommand('keys list', ['--application', ID, '--application', ID], { options }))).toBe(
      '--application is given more than once',
    );
    expect(refusal(() => parseCommand('serve', ['--port', '1', '--port=2']))).toBe('--port is given more than once');
  });

  it('names a missing required option and what it must be', () => {
    const options = { workspace: required(uuid) };
    expect(refusal(() => parseCommand('webhooks deliveries', [], { options }))).toBe(
      'webhooks deliveries needs --workspace: --workspace must be a uuid',
    );
  });

  it('refuses a value of the wrong kind, naming the option, what it must be and what was given', () => {
    const parse = (args: string[]) =>
      parseCommand('x', args, {
        options: {
          id: optional(uuid),
          environment: optional(oneOf(['test', 'live'])),
          grace: optional(wholeNumber()),
          limit: optional(wholeNumber({ min: 1, max: 1000 })),
        },
      });
    expect(refusal(() => parse(['--id', 'abc']))).toBe('--id must be a uuid, got "abc"');
    expect(refusal(() => parse(['--environment', 'prod']))).toBe('--environment must be one of test, live, got "prod"');
    expect(refusal(() => parse(['--grace', 'soon']))).toBe('--grace must be a whole number, got "soon"');
    expect(refusal(() => parse(['--grace', '-1']))).toMatch(/--grace/);
    expect(refusal(() => parse(['--grace', '1.5']))).toBe('--grace must be a whole number, got "1.5"');
    expect(refusal(() => parse(['--grace', '9'.repeat(20)]))).toMatch(/--grace must be a whole number/);
    expect(refusal(() => parse(['--limit', '0']))).toBe('--limit must be a whole number from 1 to 1000, got "0"');
    expect(refusal(() => parse(['--limit', '1001']))).toBe('--limit must be a whole number from 1 to 1000, got "1001"');
    expect(parse(['--grace', '0', '--limit', '1000']).values).toMatchObject({ grace: 0, limit: 1000 });
  });

  it('takes what follows -- as positional, even when it looks like an option', () => {
    const spec = { positional: { name: 'file', kind: text } };
    expect(parseCommand('backup', ['--', '--copy.db'], spec).positional).toBe('--copy.db');
  });
});
