// Checks the import rules of the workspace packages (see docs/architecture.md, "Packages"), because tsc and Biome check neither and they are the first thing to erode in a monorepo:
//
//   direction  an @agentloop/* package imports only the packages below it in LAYERS (a lower package
//              never imports a higher one); examples may import anything;
//   declared   every package a source file imports is declared in its package.json: `dependencies` or
//              `peerDependencies`, and for tests (*.test.ts, *.test-d.ts, test-support/) also the
//              package's or the root's `devDependencies`; Node built-ins need nothing;
//   unused     every workspace package a package.json declares is imported: a runtime dependency by its
//              sources, a devDependency by its tests (a stale dependency draws a false edge in the
//              package graph and installs what nothing loads);
//   cycles     no cycle between packages over their declared dependencies, and none between the modules
//              of a package, neither over runtime relative imports (a cycle makes the load order decide
//              whether a class exists yet when it is used) nor over type-only ones (two modules that
//              need each other's types are one concept split in two, or share a type that belongs in a
//              third module).
//
// Usage: node scripts/check-imports.mjs [repository root]   (npm run check:imports)
// It reads source files as text (scripts/read-imports.mjs).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractImports } from './read-imports.mjs';

/**
 * Which of our packages each package may import. A workspace package that is neither here nor an example
 * is a problem until it is added. A package here that does not exist yet is skipped.
 */
export const LAYERS = {
  '@agentloop/spec': [],
  '@agentloop/provider-utils': ['@agentloop/spec'],
  '@agentloop/tools': ['@agentloop/spec'],
  '@agentloop/memory': ['@agentloop/spec', '@agentloop/tools'],
  '@agentloop/prompts': ['@agentloop/spec', '@agentloop/tools'],
  '@agentloop/core': ['@agentloop/spec', '@agentloop/tools', '@agentloop/memory', '@agentloop/prompts'],
  '@agentloop/providers': ['@agentloop/spec', '@agentloop/provider-utils'],
  // The session stores: beside core on the memory package's contract, so that core never loads SQLite.
  '@agentloop/sessions': ['@agentloop/spec', '@agentloop/memory'],
  // A first-party tool package, built like a third-party one: on @agentloop/tools alone.
  '@agentloop/workspace-tools': ['@agentloop/tools'],
  // The MCP client: MCP servers' tools as agentloop tools, a tool package like the others.
  '@agentloop/mcp': ['@agentloop/spec', '@agentloop/tools'],
  // The editor executor, beside the CLI: it runs any agent, hands the workspace tools the editor's file
  // system and terminals, and connects the editor's MCP servers.
  '@agentloop/executor-acp': [
    '@agentloop/spec',
    '@agentloop/tools',
    '@agentloop/memory',
    '@agentloop/prompts',
    '@agentloop/core',
    '@agentloop/workspace-tools',
    '@agentloop/mcp',
  ],
  // Durable runs: the loop's journal seam (core) kept by a Restate Virtual Object.
  '@agentloop/restate': ['@agentloop/spec', '@agentloop/tools', '@agentloop/memory', '@agentloop/core'],
  // The web executor: any agent behind HTTP (AG-UI, the AI SDK's UI message stream) and a page.
  '@agentloop/executor-http': ['@agentloop/spec', '@agentloop/tools', '@agentloop/memory', '@agentloop/core'],
  '@agentloop/executor-cli': [
    '@agentloop/spec',
    '@agentloop/provider-utils',
    '@agentloop/tools',
    '@agentloop/memory',
    '@agentloop/prompts',
    '@agentloop/core',
    '@agentloop/providers',
    '@agentloop/workspace-tools',
    '@agentloop/mcp',
    '@agentloop/executor-acp',
    '@agentloop/executor-http',
    '@agentloop/sessions',
  ],
};

/**
 * What a package's tests (and test support) may import beyond its layer, as devDependencies. Kept short
 * on purpose: the providers' end-to-end tests drive a real DefaultAgent over recorded traffic, which no
 * package below core can do, and no package cycle follows since core never depends on providers.
 */
export const TEST_LAYERS = {
  // The providers' end-to-end tests also call a real MCP server's tools through each wire format, and run
  // the real apply_patch workspace tool through the Responses API's own apply_patch: the MCP client and
  // the workspace tools sit beside the providers (on tools only), so no cycle follows.
  '@agentloop/providers': ['@agentloop/core', '@agentloop/mcp', '@agentloop/workspace-tools'],
  // The workspace tools' tests run them in a real agent, as an app would.
  '@agentloop/workspace-tools': ['@agentloop/core'],
  // The editor executor's tests resume sessions from a real store, as an app would.
  '@agentloop/executor-acp': ['@agentloop/sessions'],
  // The MCP client's tests run real servers' tools in a real agent, native and XML.
  '@agentloop/mcp': ['@agentloop/core'],
  // The web and durable executors' tests resume sessions from a real store, as an app would; the web
  // executor's also run a real MCP server's elicitation through its routes (mcp sits on tools only).
  '@agentloop/executor-http': ['@agentloop/sessions', '@agentloop/mcp'],
  '@agentloop/restate': ['@agentloop/sessions'],
  // The session stores' tests resume, crash and lock real agents' sessions.
  '@agentloop/sessions': ['@agentloop/core'],
};

const OUR_SCOPES = ['@agentloop/', '@agentloop-examples/'];
const SOURCE_EXTENSIONS = ['.ts', '.mts', '.tsx', '.js', '.mjs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '__fixtures__']);
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
const RULES = 'docs/architecture.md, "Packages"';

// ---------------------------------------------------------------------------------------------------------
// The workspace

const toPosix = (file) => file.split(path.sep).join('/');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const isDirectory = (file) => statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** The workspace folders named by the root's "workspaces": exact paths and `folder/*` patterns. */
function workspaceFolders(root, patterns) {
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    if (!isDirectory(path.join(root, parent))) return [];
    // Only folders: a file beside the examples (a test of them all) is no workspace, as npm also holds.
    return readdirSync(path.join(root, parent))
      .sort()
      .filter((name) => isDirectory(path.join(root, parent, name)))
      .map((name) => `${parent}/${name}`);
  });
}

function sourceFiles(folder) {
  if (!isDirectory(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(file);
      return SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) ? [file] : [];
    });
}

export function readPackages(root) {
  const rootManifest = readJson(path.join(root, 'package.json'));
  return workspaceFolders(root, rootManifest.workspaces ?? [])
    .filter((folder) => statSync(path.join(root, folder, 'package.json'), { throwIfNoEntry: false }))
    .map((folder) => {
      const manifest = readJson(path.join(root, folder, 'package.json'));
      const isExample = folder.startsWith('examples/') || manifest.name.startsWith('@agentloop-examples/');
      return { folder, manifest, isExample, files: sourceFiles(path.join(root, folder, 'src')) };
    });
}

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`. */
export const packageNameOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

export const isTestFile = (file) =>
  /\.test(-d)?\.[cm]?[jt]sx?$/.test(file) || file.split(path.sep).includes('test-support');
const isOurs = (name) => OUR_SCOPES.some((scope) => name.startsWith(scope));
const isBuiltin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier);
const isBare = (specifier) => !/^[./#]/.test(specifier) && !/^[a-z]+:/.test(specifier);
const declared = (manifest, fields) => new Set(fields.flatMap((field) => Object.keys(manifest[field] ?? {})));

/** The file a relative import names: `./x.js` is `./x.ts` in the sources, `./dir/index.js` likewise. */
function resolveRelative(fromFile, specifier, knownFiles) {
  const target = path.resolve(path.dirname(fromFile), specifier);
  const withoutExtension = target.replace(/\.[cm]?jsx?$/, '');
  const candidates = [target];
  for (const extension of SOURCE_EXTENSIONS) candidates.push(withoutExtension + extension);
  for (const extension of SOURCE_EXTENSIONS) candidates.push(path.join(target, `index${extension}`));
  return candidates.find((candidate) => knownFiles.has(candidate));
}

// ---------------------------------------------------------------------------------------------------------
// Cycles

/** The strongly connected components of a graph (Map of node → Set of nodes) that hold a cycle. */
function tangles(graph) {
  const order = new Map();
  const lowest = new Map();
  const stack = [];
  const found = [];
  const visit = (node) => {
    order.set(node, order.size);
    lowest.set(node, order.get(node));
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(node, Math.min(lowest.get(node), lowest.get(next)));
      } else if (stack.includes(next)) {
        lowest.set(node, Math.min(lowest.get(node), order.get(next)));
      }
    }
    if (lowest.get(node) !== order.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!order.has(node)) visit(node);
  return found;
}

/** The shortest cycle through the first node of a component, as a chain that ends where it starts. */
function shortestCycle(graph, component) {
  const start = component[0];
  const members = new Set(component);
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const between = [];
        for (let at = node; at !== start; at = cameFrom.get(at)) between.unshift(at);
        return [start, ...between, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

function cycleProblems(graph, describe) {
  return tangles(graph).map((component) => describe(shortestCycle(graph, component), component.length));
}

// ---------------------------------------------------------------------------------------------------------
// The check

/** Checks the workspace under `root`; returns counts and the problems found, each with a message. */
export function checkImports(root) {
  const rootManifest = readJson(path.join(root, 'package.json'));
  const packages = readPackages(root);
  const workspaceNames = new Set(packages.map((entry) => entry.manifest.name));
  const problems = [];
  let fileCount = 0;
  let importCount = 0;

  for (const { folder, manifest, isExample, files } of packages) {
    const name = manifest.name;
    const layer = LAYERS[name];
    if (!isExample && !layer) {
      problems.push({
        kind: 'unlisted',
        file: `${folder}/package.json`,
        message: `${name} is not in the layering table: add it to LAYERS in scripts/check-imports.mjs with the packages it may import (${RULES}).`,
      });
    }
    const runtimeDependencies = declared(manifest, ['dependencies', 'peerDependencies', 'optionalDependencies']);
    const testDependencies = new Set([
      ...runtimeDependencies,
      ...declared(manifest, ['devDependencies']),
      ...declared(rootManifest, ['dependencies', 'devDependencies']),
    ]);
    const knownFiles = new Set(files);
    const moduleGraph = new Map(files.map((file) => [file, new Set()]));
    // The same modules with their type-only imports too: a cycle here and not above is a type-only cycle.
    const typeGraph = new Map(files.map((file) => [file, new Set()]));
    const imported = new Set();
    const importedBySources = new Set();

    for (const file of files) {
      fileCount++;
      const where = toPosix(path.relative(root, file));
      const isTest = isTestFile(path.relative(path.join(root, folder), file));
      for (const { specifier, line, typeOnly, dynamic } of extractImports(readFileSync(file, 'utf8'))) {
        importCount++;
        if (specifier.startsWith('.')) {
          // A dynamic import is the usual way to break a cycle on purpose: it runs after both modules loaded.
          const target = resolveRelative(file, specifier, knownFiles);
          if (target && !typeOnly && !dynamic) moduleGraph.get(file).add(target);
          if (target && (typeOnly || !dynamic)) typeGraph.get(file).add(target);
          continue;
        }
        if (!isBare(specifier) || isBuiltin(specifier)) continue;
        const importedName = packageNameOf(specifier);
        if (importedName === name) continue; // a package importing itself by name
        imported.add(importedName);
        if (!isTest) importedBySources.add(importedName);
        const allowedInTests = isTest && (TEST_LAYERS[name] ?? []).includes(importedName);
        if (isOurs(importedName) && !isExample && layer && !layer.includes(importedName) && !allowedInTests) {
          const allowed = layer.length > 0 ? `only ${layer.join(', ')}` : 'none of our packages';
          problems.push({
            kind: 'direction',
            file: where,
            line,
            specifier,
            message: `${name} may import ${allowed} (${RULES}). Move what it needs into a package it may import; if the layering itself changed, change LAYERS in scripts/check-imports.mjs and docs/architecture.md together.`,
          });
        }
        if (!(isTest ? testDependencies : runtimeDependencies).has(importedName)) {
          const onlyForTests = testDependencies.has(importedName) ? ' for tests only (a devDependency)' : '';
          const fields = isTest
            ? `"devDependencies" of ${folder}/package.json (or the root's)`
            : `"dependencies" (or "peerDependencies") of ${folder}/package.json`;
          problems.push({
            kind: 'undeclared',
            file: where,
            line,
            specifier,
            message: `${importedName} is declared${onlyForTests || ' nowhere'}: add it to ${fields}.`,
          });
        }
      }
    }
    const inSource = (file) => toPosix(path.relative(path.join(root, folder, 'src'), file));
    const moduleCycle = (chain, size) => ({
      kind: 'module cycle',
      file: `${folder}/src`,
      message:
        chain.map(inSource).join(' → ') +
        (size > chain.length - 1 ? ` (${size} modules are tangled together)` : '') +
        '. Break it: move what these modules share into a module of its own, or make an import that only needs types `import type`.',
    });
    const runtimeTangles = new Set(tangles(moduleGraph).map((component) => component.join('\0')));
    problems.push(...cycleProblems(moduleGraph, moduleCycle));
    for (const component of tangles(typeGraph)) {
      if (runtimeTangles.has(component.join('\0'))) continue;
      const chain = shortestCycle(typeGraph, component);
      problems.push({
        kind: 'type cycle',
        file: `${folder}/src`,
        message:
          chain.map(inSource).join(' → ') +
          (component.length > chain.length - 1 ? ` (${component.length} modules are tangled together)` : '') +
          ' over type-only imports. Move the type they share to the module that owns it, or into a module of its own.',
      });
    }

    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
      for (const dependency of Object.keys(manifest[field] ?? {})) {
        if (!workspaceNames.has(dependency)) continue;
        const message = !imported.has(dependency)
          ? `${dependency} is in "${field}" but no file under ${folder}/src imports it: remove it from ${folder}/package.json.`
          : field !== 'devDependencies' && !importedBySources.has(dependency)
            ? `${dependency} is in "${field}" but only tests import it: move it to "devDependencies" of ${folder}/package.json.`
            : undefined;
        if (message) problems.push({ kind: 'unused', file: `${folder}/package.json`, specifier: dependency, message });
      }
    }
  }

  const packageGraph = new Map(
    packages.map(({ manifest }) => [
      manifest.name,
      new Set([...declared(manifest, DEPENDENCY_FIELDS)].filter((dependency) => workspaceNames.has(dependency))),
    ]),
  );
  problems.push(
    ...cycleProblems(packageGraph, (chain) => ({
      kind: 'package cycle',
      file: 'workspace',
      message: `${chain.join(' → ')} over their declared dependencies. Drop the dependency that points up the layering (${RULES}).`,
    })),
  );

  return { files: fileCount, imports: importCount, problems };
}

/** One problem as the lines a person reads: where, what, and what to do. */
export function formatProblem({ kind, file, line, specifier, message }) {
  const where = line ? `${file}:${line}` : file;
  return `${where}  ${kind}${specifier ? ` '${specifier}'` : ''}\n    ${message}`;
}

function main() {
  const scriptsFolder = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(process.argv[2] ?? path.join(scriptsFolder, '..'));
  const { files, imports, problems } = checkImports(root);
  for (const problem of problems) console.log(formatProblem(problem));
  console.log(`imports: ${files} files, ${imports} imports checked, ${problems.length} problems`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
