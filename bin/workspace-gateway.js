#!/usr/bin/env node
// The CLI runs the TypeScript source directly (Node's type stripping), which needs Node.js 22.18 or newer.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`workspace-gateway needs Node.js 22.18 or newer (24 recommended); this is ${process.version}.`);
  process.exit(1);
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
