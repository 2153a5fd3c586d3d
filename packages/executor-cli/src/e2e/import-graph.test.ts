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
      expect(ofPackages(run.modules, ['providers']).length).toBeGreaterThan(0);
    });

    it('loads neither @agentloop/mcp nor the MCP SDK', () => {
      expect(ofPackages(run.modules, ['mcp', '@modelcontextprotocol/sdk'])).toEqual([]);
    });

    it('runs the bundled command, not the per-module files tsc wrote', () => {
      expect(run.modules.some((module) => module.endsWith('/dist/command/main.js'))).toBe(true);
      expect(run.modules.filter((module) => /\/executor-cli\/dist\/(?!command\/)/.test(module))).toEqual([]);
    });

    it('loads what the workspace tools load on use (zod, diff, re2js) only once the agent is built and runs', () => {
      // The tools are created (their JSON Schemas sent) and no tool is called, but the composition starts
      // loading the tools' libraries when the run starts, while its model request is in flight: never
      // before the agent exists, which the plugin container (tsyringe) builds.
      const container = run.modules.findIndex((module) => module.includes('/node_modules/tsyringe/'));
      expect(container).toBeGreaterThan(0);
      const libraries = ofPackages(run.modules, ['zod', 'diff', 're2js']);
      expect(libraries.filter((module) => run.modules.indexOf(module) < container)).toEqual([]);
      expect(
        ofPackages(run.modules, ['workspace-tools', 'sessions']).map((module) => module.split('/dist/')[1]),
      ).toEqual(['bundle/index.js', 'bundle/index.js']);
    });

    it("loads none of the interactive session's chunks: its executor, line editor, slash commands, approval screens", () => {
      // The chunks are there to be left out.
      expect(readdirSync(COMMAND_DIR).filter((file) => INTERACTIVE_CHUNK.test(file))).toHaveLength(3);
      const loaded = run.modules.filter((module) => INTERACTIVE_CHUNK.test(module.split('/').at(-1) ?? ''));
      expect(loaded).toEqual([]);
    });
  });
});
