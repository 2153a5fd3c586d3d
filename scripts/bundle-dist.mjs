// Bundles a package's compiled dist into one file per entry point (plus chunks they share or load on use),
// so that importing it reads a few files instead of one per source module. A cold import of
// @agentloop/core read about 150 modules; the loader's cost per module (open, stat, parse, link) was most
// of its start-up (bench/cold-import.bench.mjs measures it).
//
// Usage, in a package's folder, after `tsc -p tsconfig.build.json`: node ../../scripts/bundle-dist.mjs
//
// Each `exports` subpath's `import` (and `default`) file is under dist/bundle/ and is built from the file
// tsc wrote beside its `types` (dist/index.d.ts → dist/index.js). Every bare import (another package,
// node:*) stays an import (BUNDLED ones aside), so each package is bundled once and two packages never
// hold two copies of one class. The entries of one package are bundled together: what they share is one
// chunk, not two copies.
// tsc's per-module files stay in dist/ for the type declarations and for tests that import one module.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'rolldown';

const OUT_DIR = 'dist/bundle';

// Dependencies bundled into the importing package's dist instead of imported: CommonJS packages on a cold
// import's path. The first CommonJS module a process loads starts Node's CommonJS loader (10–25 ms), which
// their ES module code does not. Each is small, has no dependencies and is a `dependencies` entry of the
// package that imports it (core: eventemitter3, its event bus).
const BUNDLED = new Set(['eventemitter3']);
const require = createRequire(path.resolve('package.json'));

/** The license of each BUNDLED package, as a comment for the chunk that holds its code (its terms ask for it). */
function licenseBanner(chunk) {
  const licenses = [];
  for (const name of BUNDLED) {
    const folder = path.dirname(require.resolve(`${name}/package.json`));
    if (!chunk.moduleIds.some((id) => id.startsWith(`${folder}${path.sep}`))) continue;
    const license = readFileSync(path.join(folder, 'LICENSE'), 'utf8').trim().replaceAll('*/', '* /');
    licenses.push(`/*! ${name}\n${license}\n*/`);
  }
  return licenses.join('\n');
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const input = {};
for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
  const target = conditions.import;
  const compiled = conditions.types?.replace(/\.d\.ts$/, '.js');
  if (typeof target !== 'string' || !target.startsWith(`./${OUT_DIR}/`) || !target.endsWith('.js') || !compiled) {
    throw new Error(
      `${manifest.name}: exports["${subpath}"] must name a "types" file and an "import" file under ./${OUT_DIR}/ ` +
        `(e.g. { "types": "./dist/index.d.ts", "import": "./${OUT_DIR}/index.js", "default": "./${OUT_DIR}/index.js" }).`,
    );
  }
  if (conditions.default !== target) {
    throw new Error(`${manifest.name}: exports["${subpath}"].default must be the "import" file, ${target}.`);
  }
  input[path.relative(OUT_DIR, target.slice(2)).replace(/\.js$/, '')] = compiled;
}

await build({
  input,
  platform: 'node',
  // A bare specifier is another package (or node:*): imported, never bundled, but for BUNDLED ones.
  external: (id) => !id.startsWith('.') && !path.isAbsolute(id) && !BUNDLED.has(id),
  // An empty bundle/ each time: chunk names carry a hash, and old ones would pile up.
  output: {
    dir: OUT_DIR,
    cleanDir: true,
    format: 'esm',
    entryFileNames: '[name].js',
    postBanner: licenseBanner,
    chunkFileNames: '[name]-[hash].js',
    // Error classes and the agent keep their names (stack traces, `constructor.name`).
    keepNames: true,
    // V8 keeps a module's source text for as long as the module lives (functions compile lazily from
    // it), and one character outside Latin-1 makes it keep the whole text at two bytes a character:
    // text is escaped to ASCII, and doc comments (kept in tsc's files beside) are left out. `@__PURE__`
    // marks stay, for an app's bundler.
    charset: 'ascii',
    comments: { jsdoc: false, annotation: true, legal: true },
  },
  logLevel: 'warn',
});
