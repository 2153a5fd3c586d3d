// Bundles the `agentloop` command's compiled modules (dist/cli/main.js and what it imports) into
// dist/command/: the entry, one `startup` chunk with everything the entry imports statically, and one
// chunk per module group it imports on use (the composition root, the interactive session, each provider
// with its SDK, MCP, ACP). Node's loader pays for each file it resolves, opens, stats, parses and links
// before the prompt can be drawn or a run's first request sent: tsc writes about 110 files for the
// command's own code, and the OpenAI SDK alone is 150 more. Bundled this way, the interactive prompt is
// drawn after reading 12 files instead of 38, and `agentloop run` of a one-step task loads about 150
// modules instead of about 330, most of the rest zod's (bench/cli.bench.mjs measures the start-up).
//
// Usage, in packages/executor-cli, after `tsc -p tsconfig.build.json` (`npm run build` does both).
// What stays an import (SHARED) is what must be one copy in the process: the @agentloop packages whose
// classes, tokens and containers a plugin (loaded from node_modules at run time) shares with the command,
// zod (tool packages hand it their schemas) and the libraries loaded only with the first markdown to
// render. Everything else is bundled: the private libraries (commander, the TOML parser, the terminal
// helpers) and @agentloop/providers with its vendor SDKs, still one chunk per vendor, loaded on use, so a
// session with Anthropic never loads the OpenAI SDK. tsc's per-module files stay in dist/ for the library
// entry (`@agentloop/executor-cli`) and for the type declarations.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { rolldown } from 'rolldown';

const SHARED = [
  '@agentloop/core',
  '@agentloop/executor-acp',
  '@agentloop/mcp',
  '@agentloop/sessions',
  '@agentloop/spec',
  '@agentloop/workspace-tools',
  'zod',
  'marked',
  'marked-terminal',
];
const builtins = new Set(builtinModules);
/** The package an import names: `@scope/name` or `name`, without a subpath. */
const packageOf = (id) =>
  id
    .split('/')
    .slice(0, id.startsWith('@') ? 2 : 1)
    .join('/');
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const unresolvable = new Set();

const options = {
  input: { main: 'dist/cli/main.js', 'crash-report': 'dist/cli/crash-report.js' },
  platform: 'node',
  external: (id) => {
    if (id.startsWith('.') || path.isAbsolute(id) || id.startsWith('\0')) return false;
    if (id.startsWith('node:') || builtins.has(id)) return true;
    const name = packageOf(id);
    if (!SHARED.includes(name)) return false;
    // An import left in the bundle is resolved from this package: it must be one of its dependencies.
    if (!(name in dependencies)) unresolvable.add(name);
    return true;
  },
  logLevel: 'warn',
};
const output = {
  // Two folders below the package, as dist/cli/ is: program.ts reads ../../package.json for --version.
  dir: 'dist/command',
  // Chunk names carry a hash: an empty folder each time keeps old ones from piling up.
  cleanDir: true,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
  // Error classes keep their names (crash reports, `constructor.name`).
  keepNames: true,
};

// Left to itself, rolldown splits what the entry imports statically into a chunk per set of importers
// (about 20 small files, all read before the prompt). A first pass finds those modules; the build puts
// them in one chunk.
const { output: firstPass } = await (await rolldown(options)).generate(output);
const chunks = new Map(firstPass.filter((file) => file.type === 'chunk').map((chunk) => [chunk.fileName, chunk]));
const startup = new Set();
const pending = [...chunks.get('main.js').imports];
const visited = new Set();
while (pending.length > 0) {
  const file = pending.pop();
  const chunk = chunks.get(file);
  if (visited.has(file) || !chunk) continue;
  visited.add(file);
  for (const id of chunk.moduleIds) startup.add(id);
  pending.push(...chunk.imports);
}
await (await rolldown(options)).write({
  ...output,
  codeSplitting: { groups: [{ name: 'startup', test: (id) => startup.has(id) }] },
});
if (unresolvable.size > 0) {
  console.error(
    `bundle-command: the command imports ${[...unresolvable].join(', ')}, which package.json does not list in dependencies: add them there, or take them out of SHARED.`,
  );
  process.exit(1);
}
