#!/usr/bin/env node
import module from 'node:module';
import v8 from 'node:v8';

// The CLI runs the TypeScript source directly (Node's type stripping), which needs Node.js 22.18 or newer.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`workspace-gateway needs Node.js 22.18 or newer (24 recommended); this is ${process.version}.`);
  process.exit(1);
}

// The long-running commands start once more in the same process (same pid, same streams) with memory settings for a
// server (docs/BENCHMARKS.md, "Measurements behind the design", "Memory"). On a machine with plenty of memory V8
// sizes the young generation at up to 64 MB per semi-space and lets the old generation grow to four times what was live at the last full
// collection, and glibc gives each thread its own malloc arena; a busy gateway then holds 400 to 500 MB for about
// 60 MB of live objects. What the operator set (a flag on the command line or in NODE_OPTIONS, MALLOC_ARENA_MAX)
// wins. Node.js 22 has no process.execve and keeps the defaults.
const HEAP_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=768'];
const flagName = (flag) => flag.split('=')[0].replaceAll('_', '-');
const operatorFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map(flagName);
const missing = HEAP_FLAGS.filter((flag) => !operatorFlags.includes(flagName(flag)));
const serving = process.argv[2] === 'serve' || process.argv[2] === 'demo';
if (serving && missing.length > 0 && typeof process.execve === 'function') {
  const args = [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, args, { MALLOC_ARENA_MAX: '2', ...process.env });
}

// V8's heap flags belong to the process, and a worker thread's own limits (the resourceLimits it is started with)
// give way to them: with the flags above, the webhook sender would get the main thread's 16 MB semi-spaces and
// 768 MB old generation. The main thread's heap was sized when it started, so the flags are cleared here, whoever
// set them, and each thread started from now on is sized by its own limits.
for (const flag of HEAP_FLAGS) v8.setFlagsFromString(`${flagName(flag)}=0`);

// Compiled code, and the TypeScript sources with their types stripped, are kept on disk between runs (in the
// system's temporary directory), so commands start faster. The background thread (the SQLite checkpointer and
// the webhook sender) does not share the setting: it reads NODE_COMPILE_CACHE when it starts, and without it
// strips its sources itself, which costs it about 12 MB of resident memory that it keeps.
const cache = module.enableCompileCache?.();
if (cache?.directory !== undefined && process.env.NODE_COMPILE_CACHE === undefined) {
  process.env.NODE_COMPILE_CACHE = cache.directory;
}

const { main } = await import('../src/cli.ts');
main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
