// What the built command loads at start-up: the prompt waits for everything main.js imports
// statically, and `agentloop run` for everything a one-step run imports. Modules that neither needs are
// loaded on use; a static import of one of them, anywhere below, puts it back on every start, and these
// tests name it. bench/cli.bench.mjs measures what the start costs.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENTLOOP_BIN, assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';

// Appends the URL of every ES module the process loads to the file in AGENTLOOP_TEST_MODULES, from the
// loader's hook thread (so nothing is lost when the command exits).
const RECORDER = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  "import { appendFileSync } from 'node:fs';" +
  "export async function load(url, context, next) {" +
  "  appendFileSync(process.env.AGENTLOOP_TEST_MODULES, url + '\\\\n'); return next(url, context); }"
));
`)}`;

/** Where the build bundles the command (scripts/bundle-command.mjs): an entry, and chunks loaded on use. */
const COMMAND_DIR = join(AGENTLOOP_BIN, '..', '..', 'dist', 'command');
/** The chunks of the interactive session: its executor (with the line editor, history, turn, approval screens) and the slash commands. */
const INTERACTIVE_CHUNK = /^(cli-executor|slash|sessions-command)-[\w-]+\.js$/;
/**
 * The chunks the prompt must not wait for: the composition root (core, the plugin container, the tools),
 * the configuration file's parser and schemas (TOML, zod), each provider with its SDK, MCP, ACP, and
 * `agentloop serve` (the HTTP server and the handler).
 */
const AFTER_PROMPT_CHUNK = /^(compose-agent|parse-config|openai|anthropic|mcp|acp-command|serve-command)-[\w-]+\.js$/;
/**
 * What the command may load from node_modules, each being one copy in the process or loaded on use: zod
 * (shared with tool packages), the plugin container (tsyringe, reflect-metadata), the session store's
 * SQLite, and the libraries the workspace tools load when the first run starts. The rest (commander, the
 * provider SDKs, the terminal helpers) is bundled into the command.
 */
const UNBUNDLED_PACKAGES = [
  'zod',
  'tsyringe',
  'reflect-metadata',
  'better-sqlite3',
  'diff',
  're2js',
  'picomatch',
  'ignore',
];

let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  await server?.close();
  server = undefined;
  workspace?.remove();
  workspace = undefined;
});

/** Runs node with the recorder in the workspace's project; resolves with its status, output and the modules it loaded. */
function recorded(
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string; modules: string[] }> {
  const at = workspace as CliWorkspace;
  const list = join(at.root, 'modules.txt');
  const child = spawn(process.execPath, ['--import', RECORDER, ...args], {
    cwd: at.project,
    env: at.environment({ AGENTLOOP_TEST_MODULES: list }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      let modules: string[] = [];
      try {
        modules = readFileSync(list, 'utf8').split('\n').filter(Boolean);
      } catch {
        // No module recorded: the assertions below say so.
      }
      resolve({ status, stdout, stderr, modules });
    });
  });
}

/** The file names of the command's own bundle among `modules`. */
function commandFiles(modules: string[]): string[] {
  return modules.filter((module) => module.includes('/dist/command/')).map((module) => module.split('/').at(-1) ?? '');
}

/** The packages `modules` were loaded from through node_modules, by name, each once. */
function nodeModulesPackages(modules: string[]): string[] {
  const names = modules.flatMap((module) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(module)?.[1] ?? []);
  return [...new Set(names)].sort();
}

/** The modules of these packages (by node_modules folder or workspace package folder) among `modules`. */
function ofPackages(modules: string[], packages: string[]): string[] {
  return modules.filter((module) =>
    packages.some((name) => module.includes(`/node_modules/${name}/`) || module.includes(`/packages/${name}/dist/`)),
  );
}

describe('what the agentloop command loads', () => {
  it('reaches its prompt without loading string-width or wrap-ansi: they load with the first text to measure', async () => {
    workspace = new CliWorkspace();
    // Everything the command's bundled main.js imports statically is evaluated before the prompt is drawn.
    const main = pathToFileURL(join(COMMAND_DIR, 'main.js')).href;
    const { status, stderr, modules } = await recorded([
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(main)});`,
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(modules.some((module) => module.endsWith('/dist/command/main.js'))).toBe(true);
    expect(ofPackages(modules, ['string-width', 'wrap-ansi', 'get-east-asian-width'])).toEqual([]);
  });

  it('reaches its prompt reading its entry, one startup chunk and the session chunks: nothing from node_modules', async () => {
    workspace = new CliWorkspace();
    // What the prompt waits for: main.js's static imports, and the interactive session's chunks, which
    // startInteractive imports while the settings are read.
    const chunks = readdirSync(COMMAND_DIR).filter((file) => file === 'main.js' || INTERACTIVE_CHUNK.test(file));
    const imports = chunks.map(
      (file) => `await import(${JSON.stringify(pathToFileURL(join(COMMAND_DIR, file)).href)});`,
    );
    const { status, stderr, modules } = await recorded(['--input-type=module', '-e', imports.join('\n')]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    // commander, the settings' libraries and the command's own modules are in the bundle; of the other
    // @agentloop packages only spec's (the provider names and their environment variables) is read.
    expect(nodeModulesPackages(modules)).toEqual([]);
    const elsewhere = modules.filter((module) => !module.startsWith('node:') && !module.includes('/dist/command/'));
    expect(elsewhere.map((module) => module.split('/packages/')[1])).toEqual(['spec/dist/bundle/index.js']);
    expect(commandFiles(modules).filter((file) => AFTER_PROMPT_CHUNK.test(file))).toEqual([]);
    // The entry's static imports are one chunk (and rolldown's runtime helpers), not a file per module group;
    // the session chunks share two small ones with the composition.
    const entryOnly = commandFiles(modules).filter((file) => !INTERACTIVE_CHUNK.test(file));
    expect(entryOnly).toContain('main.js');
    expect(entryOnly.filter((file) => /^startup-[\w-]+\.js$/.test(file))).toHaveLength(1);
    const groups = /^(main\.js|rolldown-runtime-|startup-|model-switcher-|format-mcp-servers-)/;
    expect(entryOnly.filter((file) => !groups.test(file))).toEqual([]);
  });

  describe('agentloop run of a one-step task, without MCP servers', () => {
    let run: Awaited<ReturnType<typeof recorded>>;

    beforeAll(async () => {
      // No configuration file: reading one loads zod. Without bubblewrap the run warns, which is not what
      // this measures.
      workspace = new CliWorkspace({ sandboxWhereMissing: 'as-is' });
      server = await startScriptedOpenAIServer([
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'Done.' } }] },
      ]);
      run = await recorded([AGENTLOOP_BIN, 'run', '--base-url', server.url, '--model', 'test-model', 'finish at once']);
      await server.close();
      server = undefined;
      workspace.remove();
      workspace = undefined;
    }, 60_000);

    it('completes the task, with the agent and the provider loaded', () => {
      expect(run.stderr).not.toMatch(/✗/);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('Done.');
      expect(ofPackages(run.modules, ['core']).length).toBeGreaterThan(0);
      // @agentloop/providers is bundled into the command, each vendor in a chunk of its own with its SDK.
      expect(commandFiles(run.modules).filter((file) => /^openai-[\w-]+\.js$/.test(file))).toHaveLength(1);
    });

    it("loads the OpenAI SDK from the command's openai chunk, and neither the Anthropic SDK nor its chunk", () => {
      expect(ofPackages(run.modules, ['openai', '@anthropic-ai/sdk', 'providers', 'provider-utils'])).toEqual([]);
      const chunks = commandFiles(run.modules);
      expect(chunks.filter((file) => /^openai-[\w-]+\.js$/.test(file))).toHaveLength(1);
      expect(chunks.filter((file) => /^anthropic-/.test(file))).toEqual([]);
    });

    it('loads from node_modules only what must be one copy or loads on use; the rest is bundled', () => {
      expect(nodeModulesPackages(run.modules).filter((name) => !UNBUNDLED_PACKAGES.includes(name))).toEqual([]);
      expect(nodeModulesPackages(run.modules)).toContain('zod');
    });

    it('loads neither @agentloop/mcp nor the MCP SDK', () => {
      expect(ofPackages(run.modules, ['mcp', '@modelcontextprotocol/sdk'])).toEqual([]);
    });

    it("loads neither agentloop serve's chunk nor the HTTP server's packages", () => {
      expect(commandFiles(run.modules).filter((file) => /^serve-command-/.test(file))).toEqual([]);
      expect(ofPackages(run.modules, ['executor-http', 'hono', '@hono/node-server', '@ag-ui/core'])).toEqual([]);
    });

    it('runs the bundled command, not the per-module files tsc wrote', () => {
      expect(run.modules.some((module) => module.endsWith('/dist/command/main.js'))).toBe(true);
      expect(run.modules.filter((module) => /\/executor-cli\/dist\/(?!command\/)/.test(module))).toEqual([]);
    });

    it('loads what the workspace tools and the session store load on use (zod, diff, re2js) only once the agent is built and runs', () => {
      // The tools are created (their JSON Schemas sent) and no tool is called, but the composition starts
      // loading the tools' libraries when the run starts, while its model request is in flight: never
      // before the agent exists, which the plugin container (tsyringe) builds. The session store loads the
      // schemas of its records (and zod with them) only to read a record, which creating a session does not.
      const container = run.modules.findIndex((module) => module.includes('/node_modules/tsyringe/'));
      expect(container).toBeGreaterThan(0);
      const libraries = ofPackages(run.modules, ['zod', 'diff', 're2js']);
      expect(libraries.filter((module) => run.modules.indexOf(module) < container)).toEqual([]);
      const sessions = ofPackages(run.modules, ['sessions']).map((module) => module.split('/dist/')[1]);
      const recordSchemas = sessions.findIndex((module) => module?.startsWith('bundle/record-schemas-'));
      expect(sessions[0]).toBe('bundle/index.js');
      expect(run.modules.indexOf(ofPackages(run.modules, ['sessions'])[recordSchemas] ?? '')).toBeGreaterThan(
        container,
      );
      expect(ofPackages(run.modules, ['workspace-tools']).map((module) => module.split('/dist/')[1])).toEqual([
        'bundle/index.js',
      ]);
    });

    it("loads none of the interactive session's chunks: its executor, line editor, slash commands, approval screens", () => {
      // The chunks are there to be left out.
      expect(readdirSync(COMMAND_DIR).filter((file) => INTERACTIVE_CHUNK.test(file))).toHaveLength(3);
      const loaded = run.modules.filter((module) => INTERACTIVE_CHUNK.test(module.split('/').at(-1) ?? ''));
      expect(loaded).toEqual([]);
    });
  });
});
