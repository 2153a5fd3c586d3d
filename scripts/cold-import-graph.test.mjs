// The common path's import graph, which a cold start waits for: a DefaultAgent with a provider, one run with the
// native tool protocol and no tracing, must not load the modules that only some runs need. Each of them is
// loaded on use (see the comment at its import site); a static import of one of them, anywhere below the
// entry points, puts it back on every start-up, and this test names it. The `agentloop` command likewise
// draws its prompt before it loads core. Runs against the built dist:
// `npx turbo run build`, then `node --test scripts/*.test.mjs`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// The SDKs are the providers package's dependencies, so the child process starts in its folder.
const cwd = path.join(root, 'packages', 'providers');

/** Packages that only some runs need, and what needs them. */
const LAZY = {
  'fast-xml-parser': 'the XML protocol reading an element-form block',
  jsonrepair: 'a tool call whose argument JSON needs a repair',
  'zod-to-json-schema': 'a tool whose parameters are a zod 3 schema',
  'gpt-tokenizer': 'counting tokens with a tokenizer',
  '@opentelemetry/api': 'an agent with tracing on (the Anthropic SDK loads it itself)',
  zod: 'a tool whose parameters are plain JSON Schema, read with zod 4 (a zod tool means the app loaded it)',
  tsyringe: 'a DI container (createContainer)',
  'reflect-metadata': 'a DI container (createContainer), for tsyringe',
};

// Records every module the child loads: ES modules through a load hook, CommonJS ones from the require
// cache (a module loaded with createRequire never reaches the ES loader's hooks).
const RECORDER = `
import { register, createRequire } from 'node:module';
import { writeSync } from 'node:fs';
const { port1, port2 } = new MessageChannel();
const loaded = new Set();
port1.on('message', (url) => loaded.add(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(
  'let port; export function initialize(data) { port = data.port; }' +
  'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }'
), { data: { port: port2 }, transferList: [port2] });
globalThis.reportLoadedModules = () => new Promise((resolve) => setTimeout(() => {
  for (const file of Object.keys(createRequire(process.cwd() + '/noop.js').cache)) loaded.add(file);
  writeSync(1, JSON.stringify([...loaded]));
  resolve();
}, 50));
`;

/** The files and URLs of the modules a fresh node loads running `code` (an ES module) in packages/providers. */
function modulesLoadedBy(code) {
  const recorder = `data:text/javascript,${encodeURIComponent(RECORDER)}`;
  const result = spawnSync(
    process.execPath,
    ['--import', recorder, '--input-type=module', '-e', `${code}\nawait globalThis.reportLoadedModules();`],
    { cwd, encoding: 'utf8' },
  );
  assert.equal(result.status, 0, `the child process failed:\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** The packages of LAZY among `modules`, each with one of its files. */
function lazyPackagesIn(modules, allowed = []) {
  const found = new Map();
  for (const module of modules) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(module);
    if (match && match[1] in LAZY && !allowed.includes(match[1]) && !found.has(match[1])) found.set(match[1], module);
  }
  return [...found].map(([name, file]) => `${name} (needed only by ${LAZY[name]}; loaded: ${file})`);
}

const COMMON_RUN = `
import { DefaultAgent, defineTool } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
const clock = defineTool({
  name: 'clock',
  description: 'The time.',
  parameters: { type: 'object', properties: {} },
  execute: async () => '12:00',
});
const provider = new ScriptedProvider([
  { toolCalls: [{ name: 'clock', arguments: {} }] },
  { toolCalls: [{ name: 'task_completion', arguments: { result: 'It is noon.' } }] },
]);
const agent = new DefaultAgent(provider);
agent.registerTool(clock);
const result = await agent.run('What time is it?');
if (result.exit !== 'task_completion') throw new Error('the run ended with ' + result.exit);
const toolResult = provider.requests[1].messages.find((message) => message.role === 'tool');
if (!JSON.stringify(toolResult).includes('12:00')) throw new Error('the clock tool did not run');
`;

const built = ['core', 'tools', 'providers', 'executor-cli'].every(
  (name) =>
    existsSync(path.join(root, 'packages', name, 'package.json')) &&
    existsSync(path.join(root, 'packages', name, 'dist')),
);

test('the built dist is there (the graph tests import it)', () => {
  assert.ok(built, 'packages/{core,tools,providers,executor-cli}/dist is missing: run `npx turbo run build` first.');
});

test('a native-protocol run of a DefaultAgent loads none of the lazily loaded packages', { skip: !built }, () => {
  const modules = modulesLoadedBy(COMMON_RUN);
  assert.ok(
    modules.some((module) => module.includes('/packages/core/dist/')),
    'the recorder saw no module of core',
  );
  // The clock tool is plain JSON Schema: its first call loads zod 4's reader, and nothing else.
  assert.deepEqual(lazyPackagesIn(modules, ['zod']), []);
});

test('importing core and a run with the loop-control tools alone load neither zod nor tsyringe', {
  skip: !built,
}, () => {
  const modules = modulesLoadedBy(`
    import { DefaultAgent } from '@agentloop/core';
    import { ScriptedProvider } from '@agentloop/core/testing';
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'ask_question', arguments: { question: ' ', suggestions: [] } }] },
      { toolCalls: [{ name: 'converse', arguments: { message: 'Hello.' } }] },
    ]);
    const result = await new DefaultAgent(provider).run('Hi');
    if (result.exit !== 'converse') throw new Error('the run ended with ' + result.exit);
    if (!JSON.stringify(provider.requests[1].messages).includes('must not be empty')) {
      throw new Error('the empty question was not rejected');
    }
  `);
  assert.ok(
    modules.some((module) => module.includes('/packages/core/dist/')),
    'the recorder saw no module of core',
  );
  assert.deepEqual(lazyPackagesIn(modules), []);
  // Nor any other package: core's path is agentloop's own bundles and Node's built-ins. A CommonJS package
  // would also start Node's CommonJS loader, 10–25 ms (eventemitter3 would: it is bundled into core's dist).
  const foreign = modules.filter((module) => !/\/packages\/[^/]+\/dist\/|^node:/.test(module));
  assert.deepEqual(foreign, [], 'core loads a package of its dependencies at start-up');
});

test("core's event bus is eventemitter3, bundled into core's dist with its license", { skip: !built }, () => {
  const bundle = path.join(root, 'packages', 'core', 'dist', 'bundle');
  const holding = readdirSync(bundle).filter((file) =>
    readFileSync(path.join(bundle, file), 'utf8').includes('/*! eventemitter3\nThe MIT License'),
  );
  assert.deepEqual(holding, ['index.js'], "eventemitter3's code and license are not in core's bundle");
});

test("a JSON Schema tool's arguments are checked field by field with zod, loaded on its first call", {
  skip: !built,
}, () => {
  const modules = modulesLoadedBy(`
    import { DefaultAgent, defineTool } from '@agentloop/core';
    import { ScriptedProvider } from '@agentloop/core/testing';
    const weather = defineTool({
      name: 'weather',
      description: 'The weather of a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: async ({ city }) => 'Sunny in ' + city,
    });
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'weather', arguments: { city: 5 } }] },
      { toolCalls: [{ name: 'converse', arguments: { message: 'Sunny.' } }] },
    ]);
    const agent = new DefaultAgent(provider);
    agent.registerTool(weather);
    await agent.run('Weather?');
    const answer = JSON.stringify(provider.requests[1].messages.find((message) => message.role === 'tool'));
    if (!/city: .*expected string/.test(answer)) throw new Error('the field was not named: ' + answer);
  `);
  assert.ok(
    modules.some((module) => /node_modules\/zod\//.test(module)),
    'zod was not loaded',
  );
});

test("an app's zod 4 tool keeps its descriptions, with one copy of zod loaded", { skip: !built }, () => {
  const modules = modulesLoadedBy(`
    import { z } from 'zod';
    import { ToolRegistry, defineTool } from '@agentloop/core';
    const registry = new ToolRegistry([
      defineTool({
        name: 'weather',
        description: 'The weather of a city.',
        parameters: z.object({ city: z.string().describe('The city, in English.') }),
        execute: async ({ city }) => 'Sunny in ' + city,
      }),
    ]);
    const schema = registry.definitions().find((definition) => definition.name === 'weather').inputSchema;
    if (schema.properties.city.description !== 'The city, in English.') throw new Error(JSON.stringify(schema));
  `);
  const zod = modules.filter((module) => /node_modules\/zod\//.test(module));
  assert.ok(zod.length > 0, 'zod was not seen');
  assert.deepEqual(
    zod.filter((module) => module.endsWith('.cjs')),
    [],
    "zod's CommonJS copy was loaded beside the app's",
  );
});

test('importing the OpenAI provider with core loads none of them', { skip: !built }, () => {
  const modules = modulesLoadedBy(
    `await import('@agentloop/core'); const { OpenAIProvider } = await import('@agentloop/providers/openai');
     new OpenAIProvider({ apiKey: 'test', model: 'gpt-4o-mini' });`,
  );
  assert.deepEqual(lazyPackagesIn(modules), []);
});

test('importing the Anthropic provider with core loads none but what its SDK loads', { skip: !built }, () => {
  const modules = modulesLoadedBy(
    `await import('@agentloop/core'); const { AnthropicProvider } = await import('@agentloop/providers/anthropic');
     new AnthropicProvider({ apiKey: 'test', model: 'claude-sonnet-4-5' });`,
  );
  assert.deepEqual(lazyPackagesIn(modules, ['@opentelemetry/api']), []);
});

test('importing the Google provider with core loads none but what its SDK loads', { skip: !built }, () => {
  const modules = modulesLoadedBy(
    `await import('@agentloop/core'); const { GoogleProvider } = await import('@agentloop/providers/google');
     new GoogleProvider({ apiKey: 'test', model: 'gemini-2.5-flash' });`,
  );
  assert.deepEqual(lazyPackagesIn(modules), []);
});

test('the agentloop command reaches its prompt without loading core', { skip: !built }, () => {
  // Everything main.js imports statically is loaded before the prompt is drawn; the composition root,
  // which loads core, the tools and the provider, is imported while the prompt is up (start-session.ts).
  const main = pathToFileURL(path.join(root, 'packages', 'executor-cli', 'dist', 'cli', 'main.js')).href;
  const modules = modulesLoadedBy(`await import(${JSON.stringify(main)});`);
  assert.ok(
    modules.some((module) => module.includes('/packages/executor-cli/dist/cli/')),
    'main.js was not seen',
  );
  const core = modules.filter((module) => /\/packages\/(core|tools)\/dist\/|node_modules\/zod\//.test(module));
  assert.deepEqual(core.slice(0, 3), [], 'core, the tools or zod is imported statically on the way to the prompt');
});

test('each lazily loaded package is loaded, and seen, when a run needs it', { skip: !built }, () => {
  const tools = (file) => JSON.stringify(pathToFileURL(path.join(root, 'packages', 'tools', 'dist', file)).href);
  const modules = modulesLoadedBy(`
    import { parseToolArguments } from ${tools('tool-arguments.js')};
    import { readXmlFields } from ${tools('xml/read-xml-fields.js')};
    import { toJsonSchema } from ${tools('schema/to-json-schema.js')};
    import { z } from 'zod/v3';
    import { createContainer, DefaultAgent } from '@agentloop/core';
    import { ScriptedProvider } from '@agentloop/core/testing';
    if (!parseToolArguments("{'a': 1,}").ok) throw new Error('the sloppy JSON was not repaired');
    if (!readXmlFields('<path>a.ts</path>').ok) throw new Error('the XML was not read');
    toJsonSchema(z.object({ a: z.string() }), 'zod3');
    // A traced agent imports the OpenTelemetry API when its run starts, not when it is made.
    const traced = new DefaultAgent(
      new ScriptedProvider([{ toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] }]),
      { tracing: true },
    );
    if ((await traced.run('go')).exit !== 'task_completion') throw new Error('the traced run failed');
    await createContainer();
  `);
  const found = lazyPackagesIn(modules).map((line) => line.split(' ')[0]);
  assert.deepEqual(found.sort(), [
    '@opentelemetry/api',
    'fast-xml-parser',
    'jsonrepair',
    'reflect-metadata',
    'tsyringe',
    'zod',
    'zod-to-json-schema',
  ]);
});
