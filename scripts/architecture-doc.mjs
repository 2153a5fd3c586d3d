// Keeps docs/architecture.md true to the code, because a hand-drawn graph and hand-written hops drift
// the day after they are written:
//
//   graph  the edges of its package graph (the ```mermaid block under "Packages") are generated from the
//          imports of each package's sources (tests left out): an arrow A --> B means a file of A
//          imports B. The node lines, with their descriptions, are written by hand; the script fails
//          when a package has no node line or a node line names no package.
//   names  every `identifier` the doc names in backticks (`runToolStep`, `AnthropicProvider.attempt`)
//          occurs in a package's sources outside comments, and every `path.ts` it names is a file
//          (`core/loop/run-loop.ts` is packages/core/src/loop/run-loop.ts; a bare `call-model.ts`
//          is any file of that name); a name followed by its file in parentheses, `runToolStep`
//          (`core/loop/tool-step.ts`), is declared in that file.
//
// Usage: node scripts/architecture-doc.mjs           prints each problem, exits 1 when there is one
//        node scripts/architecture-doc.mjs --write   rewrites the graph's edges in the doc
// scripts/architecture-doc.test.mjs runs the same check in CI (`node --test scripts/*.test.mjs`).

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTestFile, packageNameOf, readPackages } from './check-imports.mjs';
import { extractImports } from './read-imports.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DOC = 'docs/architecture.md';
const WRITE_HINT = 'run `node scripts/architecture-doc.mjs --write` and commit the doc';

const NODE_LINE = /^ {2}(\w+)\["(@agentloop\/[a-z-]+)(?:<br\/>[^"]*)?"\]$/;
const EDGE_LINE = /^ {2}\w+ --> \w+$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;
const FILE_PATH = /^[\w./-]+\.(?:ts|mjs|md|json)$/;

/**
 * The workspace packages (examples left out), in the root's `workspaces` order, each with the
 * `@agentloop/*` packages its sources import (tests and test support left out), in the same order.
 * @returns {Map<string, string[]>}
 */
export function packageGraph(root) {
  const packages = readPackages(root).filter((entry) => !entry.isExample);
  const order = packages.map((entry) => entry.manifest.name);
  const graph = new Map();
  for (const { folder, manifest, files } of packages) {
    const imported = new Set();
    for (const file of files) {
      if (isTestFile(path.relative(path.join(root, folder), file))) continue;
      for (const { specifier } of extractImports(readFileSync(file, 'utf8'))) {
        const name = packageNameOf(specifier);
        if (name !== manifest.name && order.includes(name)) imported.add(name);
      }
    }
    graph.set(
      manifest.name,
      order.filter((name) => imported.has(name)),
    );
  }
  return graph;
}

/**
 * The doc with the edges of its mermaid graph replaced by the graph's, one line per edge, placed after
 * the node lines. Throws when the node lines and the packages differ, saying which.
 */
export function renderGraph(doc, graph) {
  const start = doc.indexOf('```mermaid\n');
  const end = doc.indexOf('\n```', start);
  if (start === -1 || end === -1) throw new Error(`${DOC} has no \`\`\`mermaid block for the package graph`);
  const lines = doc.slice(start, end).split('\n');
  const ids = new Map();
  for (const line of lines) {
    const match = NODE_LINE.exec(line);
    if (match) ids.set(match[2], match[1]);
  }
  const missing = [...graph.keys()].filter((name) => !ids.has(name));
  const extra = [...ids.keys()].filter((name) => !graph.has(name));
  if (missing.length > 0 || extra.length > 0) {
    const problems = [
      ...missing.map((name) => `${name} has no node line: add \`  id["${name}<br/>what it holds"]\``),
      ...extra.map((name) => `${name} is no workspace package: remove its node line`),
    ];
    throw new Error(`${DOC}, package graph: ${problems.join('; ')}`);
  }
  const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => `  ${ids.get(from)} --> ${ids.get(to)}`));
  const kept = lines.filter((line) => !EDGE_LINE.test(line));
  return doc.slice(0, start) + [...kept, ...edges].join('\n') + doc.slice(end);
}

const DECLARATIONS = [
  /\b(?:function\*?|class|interface|type|enum|const|let|var|namespace)\s+([A-Za-z_$][\w$]*)/g,
  /^\s*(?:(?:public|private|protected|static|readonly|async|get|set|override|abstract|declare)\s+)*#?([A-Za-z_$][\w$]*)\??\s*[(:=<]/gm,
];

/**
 * What the packages' sources and the scripts hold outside comments: for each file, the names it declares
 * (a function, class, type or variable, or a member or field at the start of a line: a method, an
 * interface's field), and, across all files, every word (string values included).
 */
function readSources(root) {
  const files = [
    ...readPackages(root).flatMap(({ folder, files }) =>
      files.filter((file) => !isTestFile(path.relative(path.join(root, folder), file))),
    ),
    ...['scripts', 'bench'].flatMap((folder) =>
      existsSync(path.join(root, folder))
        ? readdirSync(path.join(root, folder))
            .filter((name) => name.endsWith('.mjs'))
            .map((name) => path.join(root, folder, name))
        : [],
    ),
  ];
  const declared = new Map(); // name → the files that declare it
  const words = new Set();
  for (const file of files) {
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(?<![:'"`])\/\/.*$/gm, '');
    for (const pattern of DECLARATIONS) {
      for (const [, name] of code.matchAll(pattern)) declared.set(name, (declared.get(name) ?? new Set()).add(file));
    }
    for (const [word] of code.matchAll(/[A-Za-z_$][\w$]*/g)) words.add(word);
  }
  return { declared, words };
}

/**
 * What of a backticked identifier no source holds: a lower-case word or a `snake_case` value (the
 * command's name, an error code, a vendor's event type) must occur in the code; a name must be declared; in `Owner.member` the member must be declared in
 * a file that declares the owner (a class and its method), unless the owner is a variable declared
 * nowhere on its own (`protocol.assistantMessage`).
 */
function missingParts(text, { declared, words }) {
  const name = text.replace(/\(\)$/, '');
  if (/^[a-z\d]+(?:_[a-z\d]+)*$/.test(name)) return words.has(name) ? [] : [name];
  const [owner, ...members] = name.split('.');
  if (!declared.has(owner)) return [owner];
  const missing = [];
  let files = declared.get(owner);
  for (const member of members) {
    const memberFiles = declared.get(member) ?? new Set();
    const inOwner = [...memberFiles].filter((file) => files.has(file));
    if (inOwner.length === 0) {
      missing.push(`${member} (in the file of ${owner})`);
      break;
    }
    files = new Set(inOwner);
  }
  return missing;
}

/** Each source file as `<package folder name>/<path under src>`, for matching the doc's short paths. */
function sourcePaths(root) {
  return readPackages(root).flatMap(({ folder, files }) =>
    files.map((file) =>
      [path.basename(folder), ...path.relative(path.join(root, folder, 'src'), file).split(path.sep)].join('/'),
    ),
  );
}

/** The names in backticks that the doc uses, outside its fenced code blocks, with their lines. */
function namedInBackticks(doc) {
  const named = [];
  let fenced = false;
  for (const [index, line] of doc.split('\n').entries()) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    for (const [, text] of line.matchAll(/`([^`\n]+)`/g)) named.push({ text, line: index + 1 });
  }
  return named;
}

/**
 * The doc's problems: its graph differs from the imports, an identifier it names is in no source, or a
 * file it names does not exist. Each problem is a sentence that says what to do.
 * @returns {string[]}
 */
export function architectureDocProblems(root = ROOT, doc = readFileSync(path.join(root, DOC), 'utf8')) {
  const problems = [];
  try {
    if (renderGraph(doc, packageGraph(root)) !== doc) {
      problems.push(`${DOC}: the package graph's edges differ from the packages' imports: ${WRITE_HINT}`);
    }
  } catch (error) {
    problems.push(error.message);
  }
  const sources = readSources(root);
  const paths = sourcePaths(root);
  for (const { text, line } of namedInBackticks(doc)) {
    if (FILE_PATH.test(text)) {
      const exists =
        existsSync(path.join(root, text)) ||
        existsSync(path.join(root, path.dirname(DOC), text)) ||
        paths.some((file) => file === text || file.endsWith(`/${text}`));
      if (!exists) problems.push(`${DOC}:${line}: \`${text}\` is no file: name the file that holds it now`);
    } else if (IDENTIFIER.test(text)) {
      const missing = missingParts(text, sources);
      if (missing.length > 0) {
        problems.push(
          `${DOC}:${line}: \`${text}\` names ${missing.join(', ')}, which no source holds: name what the code does now`,
        );
      }
    }
  }
  // `name` (`file.ts`): the name is declared in that file, so a hop cannot point at the wrong module.
  const prose = doc.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
  for (const match of prose.matchAll(/`([A-Za-z_$][\w$.]*)`\s+\(`([\w./-]+\.(?:ts|mjs))`/g)) {
    const [, text, file] = match;
    const owner = text.split('.')[0];
    const files = [...(sources.declared.get(owner) ?? [])].map((declaredIn) =>
      toPosix(path.relative(root, declaredIn)),
    );
    const inFile = files.some((declaredIn) =>
      [declaredIn, sourcePathOf(declaredIn)].some((name) => name === file || name.endsWith(`/${file}`)),
    );
    if (files.length > 0 && !inFile) {
      const line = prose.slice(0, match.index).split('\n').length;
      problems.push(
        `${DOC}:${line}: \`${owner}\` is not declared in \`${file}\` but in ${files.join(', ')}: name its file`,
      );
    }
  }
  return problems;
}

const toPosix = (file) => file.split(path.sep).join('/');

/** `packages/core/src/loop/x.ts` → `core/loop/x.ts`, as the doc names files; other paths as they are. */
const sourcePathOf = (file) => file.replace(/^packages\/([^/]+)\/src\//, '$1/');

function main() {
  const file = path.join(ROOT, DOC);
  if (process.argv.includes('--write')) {
    const doc = readFileSync(file, 'utf8');
    const updated = renderGraph(doc, packageGraph(ROOT));
    if (updated !== doc) writeFileSync(file, updated);
    console.log(updated === doc ? `${DOC}: the graph is up to date` : `wrote the graph's edges in ${DOC}`);
  }
  const problems = architectureDocProblems(ROOT);
  for (const problem of problems) console.log(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
