import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Executor, type LLMProvider, TOKENS } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToolSafety } from '../approval/index.js';
import type { ProviderSpec, SessionSettings } from '../config/index.js';
import { skillStartWarnings } from '../skills/index.js';
import { MemoryOutput } from '../test-support/index.js';
import { LoggingProvider } from '../verbose/index.js';
import { composeAgent } from './compose-agent.js';

// The preload, watched: when it starts and with which tools, around the agent's events.
const timeline = vi.hoisted(() => [] as string[]);
vi.mock('@agentloop/workspace-tools', async (importOriginal) => {
  const original = await importOriginal<typeof import('@agentloop/workspace-tools')>();
  return {
    ...original,
    preloadWorkspaceTools: (tools: Iterable<{ name: string }>) => {
      timeline.push(`preload ${[...tools].map((tool) => tool.name).join(',')}`);
      return Promise.resolve();
    },
  };
});

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agentloop-compose-'));
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

function settings(overrides: Partial<SessionSettings> = {}): SessionSettings {
  return {
    cwd: directory,
    projectDir: directory,
    provider: { name: 'local', type: 'openai', model: 'model-a', baseURL: 'http://127.0.0.1:1/v1' },
    protocol: 'native',
    systemPrompt: 'Be brief.',
    verbose: false,
    builtinTools: true,
    approval: { mode: 'auto', rules: [] },
    sandbox: { mode: 'workspace-write', network: false },
    plugins: [],
    config: { plugins: [], providers: { local: { type: 'openai', base_url: 'http://127.0.0.1:1/v1' } }, files: [] },
    userConfigFile: join(directory, 'config.toml'),
    ...overrides,
  };
}

function compose(
  overrides: Partial<SessionSettings> = {},
  executor?: Executor,
  extra: { toolSafety?: ToolSafety; steps?: ScriptStep[] } = {},
) {
  const built: ProviderSpec[] = [];
  const createProvider = async (spec: ProviderSpec): Promise<LLMProvider> => {
    built.push(spec);
    return new ScriptedProvider(extra.steps ?? [{ toolCalls: [{ name: 'converse', arguments: { message: 'hi' } }] }], {
      id: spec.name,
      capabilities: { modelId: spec.model },
    });
  };
  const composed = composeAgent(settings(overrides), {
    createProvider,
    errorOutput: new MemoryOutput(),
    environment: {},
    ...(executor ? { executor } : {}),
    ...(extra.toolSafety ? { toolSafety: extra.toolSafety } : {}),
  });
  return { composed, built };
}

/** Approval settings whose sandbox check answers as given, without starting bubblewrap. */
async function checkedSafety(available: boolean, mode: 'ask' | 'auto' = 'auto'): Promise<ToolSafety> {
  const safety = new ToolSafety({
    approval: { mode, rules: [] },
    sandbox: { mode: 'workspace-write', network: false },
  });
  await safety.probe(async () =>
    available
      ? { available: true, kind: 'bubblewrap', version: 'bubblewrap 0.8.0' }
      : { available: false, reason: 'bubblewrap (bwrap) is not installed' },
  );
  return safety;
}

describe('composeAgent', () => {
  it('builds the agent with the settings, the workspace tools and the provider wrapped for verbose logging', async () => {
    const { composed } = compose();
    const agent = await composed.agent;
    expect(agent.tools.list().map((entry) => entry.definition.name)).toEqual([
      'task_completion',
      'ask_question',
      'converse',
      'edit_file',
      'list_files',
      'read_file',
      'run_command',
      'search',
      'write_file',
    ]);
    expect(agent.provider).toBeInstanceOf(LoggingProvider);
    expect(agent.toolProtocol).toBe('native');
    expect((await agent.run('hello')).exit).toBe('converse');
  });

  it("offers the edit tool the model's family is trained on: apply_patch for GPT-5, edit_file otherwise", async () => {
    const composed = composeAgent(settings(), {
      createProvider: async (spec) =>
        new ScriptedProvider([], { capabilities: { modelId: spec.model, family: 'gpt-5', editTool: 'apply_patch' } }),
      errorOutput: new MemoryOutput(),
      environment: {},
    });
    const names = (await composed.agent).tools.list().map((entry) => entry.definition.name);
    expect(names).toContain('apply_patch');
    expect(names).not.toContain('edit_file');
  });

  it('notes in --verbose that a model is not in the model table, and what it runs with', async () => {
    const errorOutput = new MemoryOutput();
    const composed = composeAgent(settings({ verbose: true }), {
      createProvider: async (spec) =>
        new ScriptedProvider([], {
          capabilities: { modelId: spec.model, parallelToolCalls: false, contextWindow: 32_768 },
        }),
      errorOutput,
      environment: {},
    });
    await composed.agent;
    expect(errorOutput.text).toContain(
      'model "model-a" is not in agentloop\'s model table; it runs with: context window 32768 tokens, one tool call per response, edit_file to change files',
    );
  });

  it('registers the executor under TOKENS.Executor and the agent options from the settings', async () => {
    const executor: Executor = { run: async () => 0 };
    const { composed } = compose({ maxIterations: 3, toolTimeoutMs: 1_500 }, executor);
    const container = await composed.container;
    expect(container.resolve(TOKENS.Executor)).toBe(executor);
    expect(container.resolve(TOKENS.AgentOptions)).toMatchObject({ maxIterations: 3, toolTimeoutMs: 1_500 });
  });

  it('passes the loop options of the settings to the agent, and none that are unset', async () => {
    const loop = { onMaxIterations: 'stop', maxParallelTools: 2, parallelToolCalls: false } as const;
    const options = (await compose(loop).composed.container).resolve(TOKENS.AgentOptions);
    expect(options).toMatchObject(loop);
    const defaults = (await compose().composed.container).resolve(TOKENS.AgentOptions);
    expect(Object.keys(defaults)).not.toContain('onMaxIterations');
    expect(Object.keys(defaults)).not.toContain('parallelToolCalls');
    // The agent's default is the one default: the CLI keeps no second copy of it.
    expect(Object.keys(defaults)).not.toContain('maxIterations');
    expect(Object.keys(defaults)).not.toContain('toolTimeoutMs');
    const { protocol: _, ...withoutProtocol } = settings();
    const composed = composeAgent(withoutProtocol, {
      createProvider: async (spec) => new ScriptedProvider([], { id: spec.name }),
      errorOutput: new MemoryOutput(),
      environment: {},
    });
    expect(Object.keys((await composed.container).resolve(TOKENS.AgentOptions))).not.toContain('toolProtocol');
    expect((await composed.agent).toolProtocol).toBe('auto');
  });

  it('gives the agent the [compaction] settings: its threshold and the context window it goes by', async () => {
    const { composed } = compose({ compaction: { threshold: 0.6 }, contextWindow: 4_096 });
    const options = (await composed.container).resolve(TOKENS.AgentOptions);
    expect(options).toMatchObject({ compaction: { threshold: 0.6 }, contextWindow: 4_096 });
    const agent = await composed.agent;
    await agent.run('hello');
    // The scripted provider reports no window of its own: the figure is the configured one.
    expect(agent.contextUsage?.windowTokens).toBe(4_096);
  });

  it('turns automatic compaction off when the settings say so, and leaves the defaults when unset', async () => {
    const off = (await compose({ compaction: false }).composed.container).resolve(TOKENS.AgentOptions);
    expect(off.compaction).toBe(false);
    const defaults = (await compose().composed.container).resolve(TOKENS.AgentOptions);
    expect(Object.keys(defaults)).not.toContain('compaction');
    expect(Object.keys(defaults)).not.toContain('contextWindow');
  });

  it('puts the project AGENTS.md, the system prompt and the working directory in the system prompt', async () => {
    writeFileSync(join(directory, 'AGENTS.md'), 'Run the tests before you finish.');
    const agent = await compose().composed.agent;
    await agent.run('hello');
    const prompt = (agent.provider as LoggingProvider).inner as ScriptedProvider;
    const system = prompt.requests[0]?.systemPrompt ?? '';
    expect(system).toContain('Be brief.');
    expect(system).toContain('Run the tests before you finish.');
    expect(system).toContain(`<cwd>${directory}</cwd>`);
  });

  it('runs the workspace tools under the approval mode, writes in auto without asking, and tells the model', async () => {
    const steps: ScriptStep[] = [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }] },
      { toolCalls: [{ name: 'converse', arguments: { message: 'Written.' } }] },
    ];
    const agent = await compose({}, undefined, { toolSafety: await checkedSafety(true), steps }).composed.agent;
    const asked: string[] = [];
    agent.on('approval-requested', (event) => asked.push(event.name));
    await agent.run('write a note');
    expect(asked).toEqual([]);
    expect(readFileSync(join(directory, 'notes.txt'), 'utf8')).toBe('hello\n');
    expect(agent.tools.get('run_command')?.tool.annotations).toEqual({
      readOnly: false,
      destructive: true,
      openWorld: false,
    });
    const system = ((agent.provider as LoggingProvider).inner as ScriptedProvider).requests[0]?.systemPrompt ?? '';
    expect(system).toContain('<approval_policy>auto</approval_policy>');
    expect(system).toContain('<sandbox_mode>workspace-write</sandbox_mode>');
  });

  it('runs commands without the sandbox where it cannot run, asking about each one', async () => {
    const steps: ScriptStep[] = [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi > made.txt' } }] },
      { toolCalls: [{ name: 'converse', arguments: { message: 'Refused.' } }] },
    ];
    const { composed } = compose({}, undefined, { toolSafety: await checkedSafety(false), steps });
    const agent = await composed.agent;
    const asked: string[] = [];
    agent.on('approval-requested', (event) => {
      asked.push(`${event.name}: ${event.reason}`);
      agent.answerApproval(event.requestId, { decision: 'deny' });
    });
    await agent.run('make a file');
    expect(asked).toEqual(['run_command: a rule asks about run_command']);
    expect(agent.tools.get('run_command')?.tool.annotations).toMatchObject({ openWorld: true });
    expect(composed.toolSafety.notice()).toBe(
      'No sandbox: bubblewrap (bwrap) is not installed; run_command asks before every command, whatever the rules allow, and it runs without the sandbox.',
    );
  });

  it('gives the workspace tools the deny-list of the configuration, and says how to allow a file', async () => {
    mkdirSync(join(directory, 'private'));
    writeFileSync(join(directory, 'private', 'notes.txt'), 'mine\n');
    const config = { plugins: [], providers: {}, files: [], tools: { deny: ['private/**'], allow: [] } };
    const agent = await compose({ config }).composed.agent;
    const context = {
      signal: new AbortController().signal,
      sessionId: 's',
      workspace: directory,
      toolCallId: 'c',
      reportProgress: () => undefined,
    };
    await expect(agent.tools.get('read_file')?.tool.execute({ path: 'private/notes.txt' }, context)).rejects.toThrow(
      '"private/notes.txt" is on the deny-list of files that hold secrets (it matches "private/**"), so it is not read or written. The user can allow it with allow = ["private/notes.txt"] under [tools] in their user configuration (agentloop config path shows where).',
    );
    const listing = { path: 'private', recursive: false, include_ignored: false, offset: 0 };
    expect(await agent.tools.get('list_files')?.tool.execute(listing, context)).toBe(
      'private/notes.txt (denied: holds secrets)',
    );
  });

  it('leaves the workspace tools out when the configuration says so, and adds plugin tools', async () => {
    const plugin = join(directory, 'plugin.mjs');
    writeFileSync(
      plugin,
      "export default { name: 'p', register(container) { container.register(Symbol.for('agentloop.Tool'), () => ({ name: 'shout', description: 'Shouts.', parameters: { type: 'object', properties: {} }, execute: () => 'HEY' })); } };",
    );
    const agent = await compose({ builtinTools: false, plugins: [plugin] }).composed.agent;
    expect(agent.tools.list().map((entry) => entry.definition.name)).toEqual([
      'task_completion',
      'ask_question',
      'converse',
      'shout',
    ]);
  });

  it('gives the agent the skills it finds, a project’s only when trusted, and warns of those it left out', async () => {
    vi.stubEnv('HOME', join(directory, 'home'));
    try {
      for (const [folder, name] of [
        [join(directory, '.agents', 'skills'), 'project-skill'],
        [join(directory, 'skills'), 'user-skill'],
      ] as const) {
        mkdirSync(join(folder, name), { recursive: true });
        writeFileSync(join(folder, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Does ${name}.\n---\nSteps.\n`);
      }
      const untrusted = await compose().composed.agent;
      expect(untrusted.skills?.map((skill) => skill.name)).toEqual(['user-skill']);
      expect(untrusted.tools.get('load_skill')).toBeDefined();
      expect(skillStartWarnings(untrusted)).toEqual([
        expect.stringContaining(`add trusted_projects = [${JSON.stringify(directory)}]`),
      ]);
      const base = settings();
      const trusted = await compose({ config: { ...base.config, trusted_projects: [directory] } }).composed.agent;
      expect(trusted.skills?.map((skill) => skill.name)).toEqual(['project-skill', 'user-skill']);
      expect(skillStartWarnings(trusted)).toEqual([]);
      const disabled = await compose({
        config: { ...base.config, skills: { enabled: false, folders: [], disabled: [] } },
      }).composed.agent;
      expect(disabled.tools.get('load_skill')).toBeUndefined();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('starts loading the workspace tools’ libraries when the first run starts, before the first tool call', async () => {
    timeline.length = 0;
    writeFileSync(join(directory, 'notes.txt'), 'milk');
    const { composed } = compose({}, undefined, {
      steps: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
      ],
    });
    const agent = await composed.agent;
    agent.on('loop-start', () => timeline.push('loop-start'));
    agent.on('tool-call', (event) => timeline.push(`tool-call ${event.name}`));
    // Not at start-up: a session that is never given a task never loads them.
    expect(timeline).toEqual([]);

    await agent.run('Read the notes.');

    // The composition's own loop-start listener came first.
    expect(timeline).toEqual([
      'preload read_file,write_file,edit_file,list_files,search,run_command',
      'loop-start',
      'tool-call read_file',
      'tool-call read_file',
      'tool-call task_completion',
    ]);
  });

  it("lets a plugin's executor under TOKENS.Executor replace the given one", async () => {
    const plugin = join(directory, 'executor-plugin.mjs');
    writeFileSync(
      plugin,
      "export default { name: 'own-executor', register(container) { container.register(Symbol.for('agentloop.Executor'), () => ({ name: 'own', run: async () => 7 })); } };",
    );
    const given: Executor = { run: async () => 0 };
    const { composed } = compose({ plugins: [plugin] }, given);
    const executor = await composed.executor;
    expect(executor).not.toBe(given);
    expect(await executor?.run()).toBe(7);
    expect(await compose({}, given).composed.executor).toBe(given);
  });

  it("resolves the agent from the session's container, a child of the composition's", async () => {
    const { composed } = compose();
    const [agent, container, session] = await Promise.all([
      composed.agent,
      composed.container,
      composed.sessionContainer,
    ]);
    expect(agent.memory).toBe(session.resolve(TOKENS.Memory));
    expect(agent.memory).not.toBe(container.resolve(TOKENS.Memory));
    expect(agent.tools).toBe(container.resolve(TOKENS.ToolRegistry));
  });

  it('compacts with the compactor a configured plugin registers under TOKENS.Compactor', async () => {
    const plugin = join(directory, 'compactor-plugin.mjs');
    writeFileSync(
      plugin,
      `export default { name: 'keep-first', register(container) {
        container.register(Symbol.for('agentloop.Compactor'), () => ({
          compact: async (request) => ({
            messages: request.messages.slice(0, 1),
            strategy: 'keep-first',
            kept: { systemMessages: 0, firstUserMessage: true, recentMessages: 0 },
            summarizedMessages: 0,
            droppedMessages: request.messages.length - 1,
            droppedToolResults: 0,
          }),
        }));
      } };`,
    );
    const agent = await compose({ plugins: [plugin] }).composed.agent;
    await agent.run('hello');
    expect(await agent.compact()).toMatchObject({ strategy: 'keep-first', messagesAfter: 1 });
  });

  it("runs the plugins' dispose hooks once, however often it is asked", async () => {
    const log = join(directory, 'disposed.txt');
    const plugin = join(directory, 'dispose-plugin.mjs');
    writeFileSync(
      plugin,
      `import { appendFileSync } from 'node:fs';\nexport default { name: 'holder', register() {}, dispose() { appendFileSync(${JSON.stringify(log)}, 'disposed\\n'); } };`,
    );
    const { composed } = compose({ plugins: [plugin] });
    await Promise.all([composed.dispose(), composed.dispose()]);
    await composed.dispose();
    expect(readFileSync(log, 'utf8')).toBe('disposed\n');
  });

  it('has nothing to dispose when the container failed to build', async () => {
    const plugin = join(directory, 'broken-plugin.mjs');
    writeFileSync(plugin, "export default { name: 'broken', register() { throw new Error('no'); } };");
    const { composed } = compose({ plugins: [plugin] });
    await expect(composed.agent).rejects.toThrow('Plugin "broken" failed to register: no');
    await expect(composed.dispose()).resolves.toBeUndefined();
  });

  it('switches to another model of the same provider, keeping its base URL, and names it in errors', async () => {
    const { composed, built } = compose();
    const { label } = await composed.switchModel('model-b');
    expect(label).toBe('local:model-b @ http://127.0.0.1:1/v1');
    expect(built.at(-1)).toEqual({ name: 'local', type: 'openai', model: 'model-b', baseURL: 'http://127.0.0.1:1/v1' });
    expect(composed.errorContext).toEqual({
      providerName: 'local',
      baseURL: 'http://127.0.0.1:1/v1',
      apiKeySource: undefined,
      model: 'model-b',
    });
  });

  it('records the first provider and each one /model switches to into the one --record cassette', async () => {
    const recordFile = join(directory, 'cassettes', 'session.jsonl');
    const { composed } = compose({ recordFile });
    const agent = await composed.agent;
    expect((await agent.run('hello')).exit).toBe('converse');
    agent.setProvider((await composed.switchModel('model-b')).provider);
    expect(agent.provider.capabilities.modelId).toBe('model-b');
    expect((await agent.run('again')).exit).toBe('converse');
    const lines = readFileSync(recordFile, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({
      type: 'cassette',
      provider: { id: 'local', capabilities: { modelId: 'model-a' } },
    });
    expect(lines.filter((line) => line.type === 'request')).toHaveLength(2);
    expect(lines.filter((line) => line.type === 'end').map((line) => line.outcome)).toEqual(['finished', 'finished']);
  });

  it('fails to build the agent, as a setup error, when the --record cassette cannot be written', async () => {
    writeFileSync(join(directory, 'taken'), '');
    const { composed } = compose({ recordFile: join(directory, 'taken', 'session.jsonl') });
    await expect(composed.agent).rejects.toMatchObject({ code: 'invalid_record_file' });
  });

  it('labels verbose requests by the provider and API in use, not by the SDK provider id, after /model too', async () => {
    const errorOutput = new MemoryOutput();
    const provider: ProviderSpec = {
      name: 'corp',
      type: 'openai-responses',
      model: 'gpt-5',
      baseURL: 'http://127.0.0.1:1/v1',
    };
    const composed = composeAgent(settings({ verbose: true, provider }), {
      // As OpenAIResponsesProvider does for any server but OpenAI's.
      createProvider: async (spec) =>
        new ScriptedProvider([{ toolCalls: [{ name: 'converse', arguments: { message: 'hi' } }] }], {
          id: 'openai-compatible',
          capabilities: { modelId: spec.model },
        }),
      errorOutput,
      environment: {},
    });
    const agent = await composed.agent;
    await agent.run('hello');
    agent.setProvider((await composed.switchModel('gpt-5-mini')).provider);
    await agent.run('again');
    const requests = errorOutput.text.split('\n').filter((line) => line.startsWith('→'));
    expect(requests.map((line) => line.slice(0, line.indexOf(':', line.indexOf(')'))))).toEqual([
      '→ model request #1 (corp:gpt-5, Responses API)',
      '→ model request #1 (corp:gpt-5-mini, Responses API)',
    ]);
  });

  it('refuses to switch to a provider that has no key', async () => {
    await expect(compose().composed.switchModel('anthropic:claude-sonnet-4-6')).rejects.toThrow(
      'The anthropic provider needs an API key: set ANTHROPIC_API_KEY',
    );
  });
});
