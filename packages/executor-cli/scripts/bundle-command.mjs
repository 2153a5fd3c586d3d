// Bundles the `agentloop` command's compiled modules (dist/cli/main.js and what it imports from this
// package) into dist/command/: the entry, plus one chunk per module group it imports on use (the
// composition root, the interactive session, MCP, ACP). tsc wrote about 110 files for the command's own
// code, and Node's loader pays for each file it opens, stats, parses and links before the prompt can be
// drawn; the bundle is a few files (bench/cli.bench.mjs measures the start-up).
//
// Usage, in packages/executor-cli, after `tsc -p tsconfig.build.json` (`npm run build` does both).
// Every bare import (another package, node:*) stays an import: @agentloop/* packages are bundled on their
// own, and one class never has two copies. tsc's per-module files stay in dist/ for the library entry
// (`@agentloop/executor-cli`) and for the type declarations.
import path from 'node:path';
import { build } from 'rolldown';

await build({
  input: { main: 'dist/cli/main.js', 'crash-report': 'dist/cli/crash-report.js' },
  platform: 'node',
  external: (id) => !id.startsWith('.') && !path.isAbsolute(id),
  output: {
    // Two folders below the package, as dist/cli/ is: program.ts reads ../../package.json for --version.
    dir: 'dist/command',
    // Chunk names carry a hash: an empty folder each time keeps old ones from piling up.
    cleanDir: true,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    // Error classes keep their names (crash reports, `constructor.name`).
    keepNames: true,
  },
  logLevel: 'warn',
});
