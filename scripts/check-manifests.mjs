// What every published package's manifest and tarball must hold, so that a package installed from the
// registry is whole: its LICENSE, a `require()`-able export map, where it comes from, and no source map
// that points at sources left out of the tarball.
//
// Usage: node scripts/check-manifests.mjs      prints each problem, exits 1 when there is one
//        (scripts/check-manifests.test.mjs runs the same check in CI, with `node --test scripts/*.test.mjs`)

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
const TEST_FILE = /(?:^|\/)(?:test-support|__fixtures__|__snapshots__)\/|\.test(?:-d)?\.[cm]?[jt]s$/;

/**
 * A package to check: its directory relative to the root, its manifest, the files `npm pack` puts in its
 * tarball, and a way to read a file of it (a source map, its LICENSE).
 * @typedef {{ directory: string, manifest: Record<string, any>, packed: string[], read: (file: string) => string | undefined }} PackageUnderCheck
 */

/**
 * The problems of one package, each a sentence naming the package and what to change; empty when it is
 * whole. `rootLicense` is the repository's LICENSE, which each package's copy must equal.
 * @param {PackageUnderCheck} pkg
 * @param {string} rootLicense
 * @returns {string[]}
 */
export function manifestProblems(pkg, rootLicense) {
  const { directory, manifest, packed } = pkg;
  const name = manifest.name ?? directory;
  const problems = [];
  const problem = (text) => problems.push(`${name}: ${text}`);

  if (typeof manifest.license !== 'string' || manifest.license === '') problem('has no "license"');
  if (!packed.includes('LICENSE')) {
    problem('its tarball has no LICENSE: copy the root LICENSE into the package and list it in "files"');
  } else if (pkg.read('LICENSE') !== rootLicense) {
    problem("its LICENSE differs from the repository's: copy the root LICENSE again");
  }

  const repository = manifest.repository;
  if (typeof repository !== 'object' || repository === null) {
    problem('has no "repository" ({ type, url, directory })');
  } else {
    if (repository.type !== 'git' || !/^git\+https:\/\/\S+\.git$/.test(repository.url ?? ''))
      problem('"repository" needs type "git" and a url of the form git+https://….git');
    if (repository.directory !== directory) problem(`"repository.directory" must be "${directory}"`);
  }
  if (!/^https:\/\//.test(manifest.homepage ?? '')) problem('has no "homepage" (an https URL)');
  if (!/^https:\/\//.test(manifest.bugs?.url ?? '')) problem('has no "bugs.url" (an https URL)');
  if (typeof manifest.engines?.node !== 'string') problem('has no "engines.node"');

  for (const field of DEPENDENCY_FIELDS) {
    const value = manifest[field];
    if (value !== undefined && (typeof value !== 'object' || Object.keys(value).length === 0))
      problem(`has an empty "${field}": remove it`);
  }

  const exportsMap = manifest.exports;
  if (typeof exportsMap !== 'object' || exportsMap === null) problem('has no "exports" map');
  for (const [subpath, target] of Object.entries(exportsMap ?? {})) {
    if (typeof target !== 'object' || target === null) {
      problem(`exports["${subpath}"] must be an object of conditions ({ types, import, default })`);
      continue;
    }
    const conditions = Object.keys(target);
    if (conditions[0] !== 'types') problem(`exports["${subpath}"] must list "types" first`);
    if (conditions.at(-1) !== 'default') {
      problem(
        `exports["${subpath}"] needs a "default" condition, last, so that require() finds it on Node versions that can require ES modules`,
      );
    }
    for (const condition of conditions) {
      const file = target[condition].replace(/^\.\//, '');
      if (!packed.includes(file))
        problem(`exports["${subpath}"].${condition} names ${file}, which is not in the tarball`);
    }
  }
  for (const [command, file] of Object.entries(manifest.bin ?? {})) {
    if (!packed.includes(file.replace(/^\.\//, '')))
      problem(`bin "${command}" names ${file}, which is not in the tarball`);
  }

  const strayMaps = [];
  for (const file of packed) {
    if (TEST_FILE.test(file)) problem(`its tarball holds a test file, ${file}`);
    if (!file.endsWith('.map')) continue;
    const missing = mapSources(pkg, file).filter((source) => !packed.includes(source));
    if (missing.length > 0) strayMaps.push(`${file} → ${missing.join(', ')}`);
  }
  if (strayMaps.length > 0) {
    const more = strayMaps.length > 1 ? ` and ${strayMaps.length - 1} more` : '';
    problem(
      `its tarball holds source maps whose sources are not in it (${strayMaps[0]}${more}): ship the sources, or no maps (sourceMap and declarationMap false in tsconfig.build.json, "!dist/**/*.map" in "files")`,
    );
  }
  return problems;
}

/** The files a source map in the tarball points at, relative to the package. */
function mapSources(pkg, file) {
  let map;
  try {
    map = JSON.parse(pkg.read(file) ?? '{}');
  } catch {
    return [`${file} (not readable as JSON)`];
  }
  const base = path.posix.dirname(file);
  return (map.sources ?? []).map((source) => path.posix.normalize(path.posix.join(base, map.sourceRoot ?? '', source)));
}

/** The directories (relative to the root) of the workspace packages under packages/ that are published. */
export function publishedPackageDirectories() {
  return readdirSync(path.join(ROOT, 'packages'))
    .map((entry) => `packages/${entry}`)
    .filter((directory) => existsSync(path.join(ROOT, directory, 'package.json')))
    .filter((directory) => !JSON.parse(readFileSync(path.join(ROOT, directory, 'package.json'), 'utf8')).private);
}

/**
 * What `npm pack` would put in each package's tarball (`npm pack --dry-run`, scripts not run), by
 * directory. Builds are not made here: it packs what dist holds now.
 * @param {string[]} directories
 * @returns {Map<string, string[]>}
 */
export function packedFiles(directories) {
  const output = execFileSync(
    'npm',
    ['pack', '--dry-run', '--json', '--ignore-scripts', ...directories.flatMap((directory) => ['-w', directory])],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const byName = new Map(JSON.parse(output).map((tarball) => [tarball.name, tarball.files.map((file) => file.path)]));
  return new Map(
    directories.map((directory) => {
      const { name } = JSON.parse(readFileSync(path.join(ROOT, directory, 'package.json'), 'utf8'));
      return [directory, byName.get(name) ?? []];
    }),
  );
}

/** Every problem of every published package under packages/. */
export function checkManifests() {
  const rootLicense = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
  const directories = publishedPackageDirectories();
  const packed = packedFiles(directories);
  return directories.flatMap((directory) =>
    manifestProblems(
      {
        directory,
        manifest: JSON.parse(readFileSync(path.join(ROOT, directory, 'package.json'), 'utf8')),
        packed: packed.get(directory) ?? [],
        read: (file) => {
          const at = path.join(ROOT, directory, file);
          return existsSync(at) ? readFileSync(at, 'utf8') : undefined;
        },
      },
      rootLicense,
    ),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkManifests();
  for (const line of problems) console.error(line);
  console.log(`manifests: ${publishedPackageDirectories().length} packages checked, ${problems.length} problems`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
