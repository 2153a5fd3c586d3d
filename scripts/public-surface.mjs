// The public surface of every package: the names each entry point in its package.json `exports` makes
// importable (values and types), read from the sources by following their `export` statements. The list
// is kept in scripts/public-surface.json; `node --test scripts/*.test.mjs` fails when the two differ, so a
// name cannot join or leave a package's API by accident.
//
// Usage: node scripts/public-surface.mjs            prints the surface
//        node scripts/public-surface.mjs --write    writes it to scripts/public-surface.json (after a
//                                                   deliberate change; say why in the commit)

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SURFACE_FILE = path.join(ROOT, 'scripts', 'public-surface.json');

const EXPORT_LIST = /export\s+(type\s+)?\{([^}]*)\}(?:\s+from\s+'([^']+)')?/g;
const EXPORT_ALL = /export\s+\*\s+(?:as\s+(\w+)\s+)?from\s+'([^']+)'/g;
const EXPORT_DECLARATION =
  /export\s+(?:declare\s+)?(?:abstract\s+)?(const|let|var|function\*?|async\s+function|class|interface|type|enum)\s+(\w+)/g;

/** `{ "<package>/<subpath>": ["name", "type Name", ...] }` for every workspace package under packages/. */
export function publicSurface(root = ROOT) {
  const rootManifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const surface = {};
  for (const workspace of rootManifest.workspaces) {
    if (!workspace.startsWith('packages/')) continue;
    const folder = path.join(root, workspace);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      // The types file mirrors the source tree (the `import` file may be a bundle, dist/bundle/index.js).
      const built =
        typeof target === 'string'
          ? target
          : (target.types?.replace(/\.d\.ts$/, '.js') ?? target.import ?? target.default);
      const source = path.join(folder, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      const entry = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, '')}`;
      surface[entry] = [...namesOf(source, new Set())].sort(byName);
    }
  }
  return surface;
}

/** The names a module exports, as `name` for values and `type Name` for types. */
function namesOf(file, visiting) {
  const names = new Set();
  if (visiting.has(file) || !existsSync(file)) return names;
  visiting.add(file);
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  for (const [, typeOnly, list] of text.matchAll(EXPORT_LIST)) {
    for (const raw of list.split(',')) {
      const item = raw.trim();
      if (item === '') continue;
      const isType = Boolean(typeOnly) || item.startsWith('type ');
      const name = item
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1);
      names.add(isType ? `type ${name}` : name);
    }
  }
  for (const [, namespace, specifier] of text.matchAll(EXPORT_ALL)) {
    if (namespace) names.add(namespace);
    else if (specifier.startsWith('.')) {
      const target = path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts'));
      for (const name of namesOf(target, visiting)) names.add(name);
    } else names.add(`* from ${specifier}`);
  }
  for (const [, kind, name] of text.matchAll(EXPORT_DECLARATION)) {
    names.add(kind === 'interface' || kind === 'type' ? `type ${name}` : name);
  }
  visiting.delete(file);
  return names;
}

function byName(a, b) {
  const key = (name) => name.replace(/^type /, '').toLowerCase();
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a < b ? -1 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const surface = publicSurface();
  if (process.argv.includes('--write')) {
    writeFileSync(SURFACE_FILE, `${JSON.stringify(surface, null, 2)}\n`);
    // In the layout Biome keeps (short arrays on one line), so that CI's Biome check passes after a write.
    execFileSync(path.join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', SURFACE_FILE], { stdio: 'ignore' });
    console.log(`wrote ${path.relative(ROOT, SURFACE_FILE)}`);
  } else {
    console.log(JSON.stringify(surface, null, 2));
  }
}
