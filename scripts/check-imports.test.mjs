// Tests for check-imports.mjs, run by `node --test scripts/*.test.mjs` (vitest only looks inside packages).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkImports } from './check-imports.mjs';
import { extractImports } from './read-imports.mjs';
import { testWorkspaces } from './test-workspace.mjs';

/** Writes a workspace from `{ 'relative/path': text or object }` into a fresh folder; objects become JSON. */
const workspace = testWorkspaces('check-imports-');

const fixture = () =>
  workspace({
    'package.json': { workspaces: ['packages/*'], devDependencies: { vitest: '4' } },
    'packages/spec/package.json': { name: '@agentloop/spec' },
    'packages/spec/src/index.ts': 'export const version = 1;\n',
    'packages/tools/package.json': {
      name: '@agentloop/tools',
      dependencies: { '@agentloop/spec': '0', '@agentloop/core': '0' },
    },
    'packages/tools/src/index.ts':
      "import { version } from '@agentloop/spec';\nimport { loop } from '@agentloop/core';\n",
    'packages/core/package.json': { name: '@agentloop/core', dependencies: { '@agentloop/spec': '0' } },
    'packages/core/src/index.ts':
      "import '@agentloop/spec';\nimport { registry } from '@agentloop/tools';\nexport * from './a.js';\n",
    'packages/core/src/a.ts': "import { b } from './b.js';\nexport const a = 1;\n",
    'packages/core/src/b.ts': "import { a } from './a.js';\nexport const b = 2;\n",
    'packages/core/src/types/c.ts': "import type { D } from './d.js';\nexport interface C { d: D }\n",
    'packages/core/src/types/d.ts': "import type { C } from './c.js';\nexport interface D { c: C }\n",
    'packages/core/src/a.test.ts': "import { test } from 'vitest';\nimport { a } from './a.js';\n",
  });

test('reports an upward import, an undeclared import, a runtime and a type-only module cycle, and nothing else', () => {
  const { problems } = checkImports(fixture());
  const where = ({ kind, file, line, specifier }) => [kind, file, line, specifier].filter(Boolean).join(' ');
  assert.deepEqual(problems.map(where), [
    'undeclared packages/core/src/index.ts 2 @agentloop/tools',
    'module cycle packages/core/src',
    'type cycle packages/core/src',
    'direction packages/tools/src/index.ts 2 @agentloop/core',
  ]);
  assert.match(problems[1].message, /^a\.ts → b\.ts → a\.ts\./);
  assert.match(problems[2].message, /^types\/c\.ts → types\/d\.ts → types\/c\.ts over type-only imports/);
  assert.match(problems[3].message, /@agentloop\/tools may import only @agentloop\/spec/);
});

test('counts every file and import it read', () => {
  const { files, imports } = checkImports(fixture());
  assert.deepEqual({ files, imports }, { files: 8, imports: 11 });
});

test('asks for a package missing from the layering table to be added', () => {
  const root = workspace({
    'package.json': { workspaces: ['packages/*'] },
    'packages/unlisted/package.json': { name: '@agentloop/unlisted' },
  });
  const [problem] = checkImports(root).problems;
  assert.equal(problem.kind, 'unlisted');
  assert.match(problem.message, /add it to LAYERS/);
});

test('reads imports as code: skips comments and strings, marks type-only and dynamic ones', () => {
  const source = [
    "// import { x } from 'in-a-comment';",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: this is source text holding a template literal
    "const text = `import y from 'in-a-template' ${value}`;",
    "const pattern = /import z from 'in-a-regex'/;",
    "import type { A } from 'a';",
    "import { type B } from 'b';",
    "export type { C } from 'c';",
    "const { d } = await import('d');",
    "let server: import('node:http').Server;",
  ].join('\n');
  assert.deepEqual(
    extractImports(source).map(({ specifier, line, typeOnly, dynamic }) => [specifier, line, typeOnly, dynamic]),
    [
      ['a', 4, true, false],
      ['b', 5, false, false],
      ['c', 6, true, false],
      ['d', 7, false, true],
      ['node:http', 8, true, true],
    ],
  );
});

test("lets the providers' tests, and only its tests, drive the agent from core", () => {
  const root = workspace({
    'package.json': { workspaces: ['packages/*'] },
    'packages/spec/package.json': { name: '@agentloop/spec' },
    'packages/spec/src/index.ts': 'export const version = 1;\n',
    'packages/core/package.json': { name: '@agentloop/core', dependencies: { '@agentloop/spec': '0' } },
    'packages/core/src/index.ts': "export * from '@agentloop/spec';\n",
    'packages/providers/package.json': {
      name: '@agentloop/providers',
      dependencies: { '@agentloop/spec': '0' },
      devDependencies: { '@agentloop/core': '0' },
    },
    'packages/providers/src/agent.test.ts': "import { DefaultAgent } from '@agentloop/core';\n",
    'packages/providers/src/index.ts': "import '@agentloop/spec';\nimport { DefaultAgent } from '@agentloop/core';\n",
  });
  const { problems } = checkImports(root);
  assert.deepEqual(
    problems.map(({ kind, file }) => `${kind} ${file}`),
    ['direction packages/providers/src/index.ts', 'undeclared packages/providers/src/index.ts'],
  );
});

test('takes only folders from a workspaces pattern, not a file beside them', () => {
  const root = workspace({
    'package.json': { workspaces: ['examples/*'] },
    'examples/app/package.json': { name: '@agentloop-examples/app' },
    'examples/app/src/index.ts': 'export const app = 1;\n',
    'examples/all-examples.test.ts': "import { app } from './app/src/index.js';\n",
  });
  assert.deepEqual(checkImports(root).problems, []);
});

test('reports a cycle of modules held by a type-only import, once, apart from runtime cycles', () => {
  const root = workspace({
    'package.json': { workspaces: ['packages/*'] },
    'packages/spec/package.json': { name: '@agentloop/spec' },
    'packages/spec/src/gate.ts': "import { CANCELLED } from './step.js';\nexport class Gate { m = CANCELLED; }\n",
    'packages/spec/src/step.ts': "import type { Gate } from './gate.js';\nexport const CANCELLED = 'x';\n",
    'packages/spec/src/lazy.ts': "export const load = () => import('./loaded.js');\n",
    'packages/spec/src/loaded.ts': "import type { load } from './lazy.js';\nexport type L = typeof load;\n",
  });
  const { problems } = checkImports(root);
  assert.deepEqual(
    problems.map(({ kind, file }) => `${kind} ${file}`),
    ['type cycle packages/spec/src'],
  );
  assert.match(problems[0].message, /^gate\.ts → step\.ts → gate\.ts over type-only imports\. Move the type/);
});

test('reports a workspace dependency that no file of the package imports, and only a workspace one', () => {
  const root = workspace({
    'package.json': { workspaces: ['packages/*'] },
    'packages/spec/package.json': { name: '@agentloop/spec' },
    'packages/spec/src/index.ts': 'export const version = 1;\n',
    'packages/tools/package.json': { name: '@agentloop/tools', dependencies: { '@agentloop/spec': '0', zod: '4' } },
    'packages/tools/src/index.ts': 'export const tools = [];\n',
    'packages/core/package.json': {
      name: '@agentloop/core',
      dependencies: { '@agentloop/spec': '0' },
      devDependencies: { '@agentloop/tools': '0' },
    },
    'packages/core/src/index.ts': "export * from '@agentloop/spec';\n",
    'packages/prompts/package.json': {
      name: '@agentloop/prompts',
      dependencies: { '@agentloop/spec': '0', '@agentloop/tools': '0' },
    },
    'packages/prompts/src/index.ts': "export type { Message } from '@agentloop/spec';\n",
    'packages/prompts/src/index.test.ts': "import { tools } from '@agentloop/tools';\n",
  });
  const { problems } = checkImports(root);
  assert.deepEqual(
    problems.map(({ kind, file, specifier }) => `${kind} ${file} ${specifier}`),
    [
      'unused packages/core/package.json @agentloop/tools',
      'unused packages/prompts/package.json @agentloop/tools',
      'unused packages/tools/package.json @agentloop/spec',
    ],
  );
  assert.match(problems[0].message, /is in "devDependencies"/);
  assert.match(problems[1].message, /is in "dependencies" but only tests import it: move it to "devDependencies"/);
  assert.match(
    problems[2].message,
    /is in "dependencies" but no file under packages\/tools\/src imports it: remove it/,
  );
});
