// Tests for architecture-doc.mjs, and the check itself on docs/architecture.md, run by
// `node --test scripts/*.test.mjs` in CI.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { architectureDocProblems, packageGraph, renderGraph } from './architecture-doc.mjs';
import { testWorkspaces } from './test-workspace.mjs';

/** Writes a workspace from `{ 'relative/path': text or object }` into a fresh folder; objects become JSON. */
const workspace = testWorkspaces('architecture-doc-');

const fixture = () =>
  workspace({
    'package.json': { workspaces: ['packages/spec', 'packages/tools', 'packages/core', 'examples/*'] },
    'packages/spec/package.json': { name: '@agentloop/spec' },
    'packages/spec/src/index.ts': 'export interface Message { role: string }\n',
    'packages/tools/package.json': { name: '@agentloop/tools' },
    'packages/tools/src/run-tool-call.ts':
      "import type { Message } from '@agentloop/spec';\nexport function runToolCall(message: Message) {}\n",
    'packages/core/package.json': { name: '@agentloop/core' },
    'packages/core/src/loop/tool-step.ts':
      "import { runToolCall } from '@agentloop/tools';\n// runToolStepOld was here\nexport class ToolStep {\n  run() {}\n}\n",
    'packages/core/src/loop/tool-step.test.ts': "import '@agentloop/spec';\nexport function onlyInATest() {}\n",
    'examples/app/package.json': { name: '@agentloop-examples/app' },
    'examples/app/src/main.ts': "import '@agentloop/core';\n",
  });

const doc = (edges, prose = '') =>
  [
    '# Architecture',
    '',
    '```mermaid',
    'graph BT',
    '  spec["@agentloop/spec<br/>contracts"]',
    '  tools["@agentloop/tools<br/>tools"]',
    '  core["@agentloop/core"]',
    ...edges.map((edge) => `  ${edge}`),
    '```',
    '',
    prose,
    '',
  ].join('\n');

test("draws an arrow for each package a package's sources import, not its tests, not the examples", () => {
  const graph = packageGraph(fixture());
  assert.deepEqual(Object.fromEntries(graph), {
    '@agentloop/spec': [],
    '@agentloop/tools': ['@agentloop/spec'],
    '@agentloop/core': ['@agentloop/tools'],
  });
});

test('replaces the edges of the doc, keeping its node lines and text', () => {
  const graph = packageGraph(fixture());
  const rendered = renderGraph(doc(['core --> spec', 'tools --> spec'], 'Text after.'), graph);
  assert.equal(rendered, doc(['tools --> spec', 'core --> tools'], 'Text after.'));
});

test('asks for a node line for a package the doc lacks, and to remove one for no package', () => {
  const graph = packageGraph(fixture());
  const lacking = doc([]).replace('  core["@agentloop/core"]\n', '  mcp["@agentloop/mcp"]\n');
  assert.throws(
    () => renderGraph(lacking, graph),
    /@agentloop\/core has no node line: add .*; @agentloop\/mcp is no workspace package: remove its node line/,
  );
});

test('reports stale edges, names no source declares, missing files and a name beside the wrong file', () => {
  const prose = [
    '`runToolCall` (`tools/run-tool-call.ts`) and `ToolStep.run` (`core/loop/tool-step.ts`) exist;',
    '`runToolStepOld` is only in a comment, `onlyInATest` only in a test, `ToolStep.walk` is no method;',
    '`core/loop/gone.ts` is no file; `runToolCall` (`core/loop/tool-step.ts`) names the wrong one.',
    '```ts',
    'notChecked(`inACodeBlock`);',
    '```',
  ].join('\n');
  const root = fixture();
  const problems = architectureDocProblems(root, doc(['core --> spec'], prose));
  assert.deepEqual(
    problems.map((problem) => problem.replace(/: (?:run|name|the package graph's edges).*$/, '')),
    [
      'docs/architecture.md',
      'docs/architecture.md:12: `runToolStepOld` names runToolStepOld, which no source holds',
      'docs/architecture.md:12: `onlyInATest` names onlyInATest, which no source holds',
      'docs/architecture.md:12: `ToolStep.walk` names walk (in the file of ToolStep), which no source holds',
      'docs/architecture.md:13: `core/loop/gone.ts` is no file',
      'docs/architecture.md:13: `runToolCall` is not declared in `core/loop/tool-step.ts` but in packages/tools/src/run-tool-call.ts',
    ],
  );
  assert.match(problems[0], /run `node scripts\/architecture-doc\.mjs --write`/);
});

test('docs/architecture.md draws the graph of the imports and names only what exists', () => {
  assert.deepEqual(architectureDocProblems(), []);
});
