// The executor over the protocol, in this process: the SDK's client side drives it as an editor would,
// every message the agent sends checked against the protocol's schemas. Models are ScriptedProviders.
import { readFileSync } from 'node:fs';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { DefaultAgent, ProviderError } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { createWorkspaceTools } from '@agentloop/workspace-tools';
import { describe, expect, it } from 'vitest';
import { AcpExecutor, type AcpExecutorOptions } from './acp-executor.js';
import { useEditorTest } from './test-support/editor-test.js';
import { complete, scriptedExecutor } from './test-support/scripted-executor.js';
import { createTempProject } from './test-support/temp-project.js';
import type { TestEditorOptions } from './test-support/test-editor.js';

const fixture = useEditorTest();

async function connect(
  scripts: ScriptStep[][],
  options: AcpExecutorOptions = {},
  editorOptions: TestEditorOptions = {},
) {
  const { executor, made } = scriptedExecutor(scripts, options);
  const editor = await fixture.connect(executor, editorOptions);
  return { editor, made };
}

describe('initialize and session/new', () => {
  it('answers initialize with what it supports, honestly', async () => {
    const { executor } = scriptedExecutor([]);
    const editor = await fixture.connect(executor);
    const answer = await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const version = (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    expect(answer).toEqual({
      protocolVersion: 1,
      agentInfo: { name: 'agentloop', title: 'agentloop', version },
      authMethods: [],
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { close: {} },
      },
    });
  });

  it('answers a session/new sent right behind initialize, before its answer, as editors pipeline', async () => {
    const { executor } = scriptedExecutor([]);
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toEditor = new TransformStream<Uint8Array, Uint8Array>();
    const listening = executor.listen(ndJsonStream(toEditor.writable, toAgent.readable));
    const writer = toAgent.writable.getWriter();
    const lines = (...messages: object[]) => messages.map((message) => `${JSON.stringify(message)}\n`).join('');
    // Both in one write, before any answer.
    await writer.write(
      new TextEncoder().encode(
        lines(
          { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } },
          { jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: fixture.project.dir, mcpServers: [] } },
        ),
      ),
    );

    const answers = await readAnswers(toEditor.readable, [1, 2]);

    expect(answers.get(1)).toMatchObject({ result: { protocolVersion: 1 } });
    expect(answers.get(2)).toMatchObject({ result: { sessionId: expect.stringMatching(/^sess_/) } });
    await writer.close();
    await listening;
  });

  it('refuses a relative cwd, which would be resolved against the agent’s process, saying what to send', async () => {
    const { editor, made } = await connect([]);
    await expect(editor.newSession('my-project')).rejects.toMatchObject({
      code: -32602,
      data: { cwd: 'my-project' },
      message: expect.stringContaining(
        'cwd must be an absolute path (the project\'s directory, as the editor has it), not "my-project"',
      ),
    });
    expect(made.setups).toEqual([]);
  });

  it('builds each session’s agent in the editor’s directory, in ask mode, and offers its slash commands', async () => {
    const { editor, made } = await connect([]);
    const response = await editor.agent.request('session/new', { cwd: fixture.project.dir, mcpServers: [] });
    expect(response.sessionId).toMatch(/^sess_[0-9a-f-]{36}$/);
    expect(made.setups).toEqual([
      {
        sessionId: response.sessionId,
        cwd: fixture.project.dir,
        resume: false,
        mcpServers: [],
        clientCapabilities: {
          fs: { readTextFile: false, writeTextFile: false },
          terminal: false,
          auth: { terminal: false },
        },
        fileSystem: undefined,
        commandRunner: undefined,
      },
    ]);
    expect(response.modes).toEqual({
      currentModeId: 'ask',
      availableModes: [
        expect.objectContaining({ id: 'read-only', name: 'Read only' }),
        expect.objectContaining({ id: 'ask', name: 'Ask' }),
        expect.objectContaining({ id: 'auto', name: 'Auto' }),
        expect.objectContaining({ id: 'yolo', name: 'Full access' }),
      ],
    });
    expect(response.configOptions).toEqual([
      expect.objectContaining({ id: 'mode', category: 'mode', type: 'select', currentValue: 'ask' }),
    ]);
    const commands = await editor.waitForUpdate(
      response.sessionId,
      (update) => update.sessionUpdate === 'available_commands_update',
    );
    expect(commands).toEqual({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        { name: 'clear', description: 'Forget the conversation and start afresh' },
        { name: 'tools', description: 'List the tools the agent can call' },
        { name: 'usage', description: 'Show the tokens this session used' },
      ],
    });
  });

  it('fails session/new with the factory’s error, and the connection goes on', async () => {
    let calls = 0;
    const executor = new AcpExecutor(
      () => {
        calls += 1;
        if (calls === 1) throw new Error('No provider configured: set ANTHROPIC_API_KEY.');
        return new DefaultAgent(new ScriptedProvider([complete('ok')]));
      },
      { log: () => undefined },
    );
    const editor = await fixture.connect(executor);
    await expect(editor.newSession(fixture.project.dir)).rejects.toMatchObject({
      code: -32603,
      message: 'No provider configured: set ANTHROPIC_API_KEY.',
    });
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(await editor.prompt(sessionId, 'hi')).toMatchObject({ stopReason: 'end_turn' });
  });
});

describe('a prompt turn', () => {
  it('streams reasoning, text and the task’s result, and ends the turn', async () => {
    const { editor } = await connect([
      [
        {
          thinking: 'Easy.',
          text: 'Looking.',
          toolCalls: [{ name: 'task_completion', arguments: { result: 'Done: 4.' } }],
        },
      ],
    ]);
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(await editor.prompt(sessionId, 'What is 2+2?')).toMatchObject({ stopReason: 'end_turn' });
    const kinds = editor.updates(sessionId).map((update) => update.sessionUpdate);
    expect(kinds.filter((kind) => kind !== 'available_commands_update')).toEqual([
      'agent_thought_chunk',
      'agent_message_chunk',
      'agent_message_chunk',
    ]);
    expect(editor.messageText(sessionId)).toBe('Looking.\n\nDone: 4.');
  });

  it('does not send the result again when the model streamed it just before, only what it adds', async () => {
    const { editor } = await connect([
      [
        {
          text: 'The answer is 4.\n',
          toolCalls: [{ name: 'task_completion', arguments: { result: 'The answer is 4.' } }],
        },
      ],
      [
        {
          text: 'I wrote notes.md.',
          toolCalls: [{ name: 'task_completion', arguments: { result: 'I wrote notes.md.', artifacts: ['notes.md'] } }],
        },
      ],
    ]);
    const first = await editor.newSession(fixture.project.dir);
    await editor.prompt(first, 'What is 2+2?');
    expect(editor.messageText(first)).toBe('The answer is 4.\n');
    const second = await editor.newSession(fixture.project.dir);
    await editor.prompt(second, 'Take notes.');
    expect(editor.messageText(second)).toBe('I wrote notes.md.\n\nArtifacts:\n- notes.md');
  });

  it('reports the turn’s token usage in the answer’s _meta, in the shape of ACP’s draft usage', async () => {
    const { editor } = await connect([
      [
        {
          text: 'Thinking it over.',
          toolCalls: [{ name: 'list_files', arguments: {} }],
          usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 60, cacheWriteTokens: 10, reasoningTokens: 5 },
        },
        { ...complete('Done.'), usage: { inputTokens: 150, outputTokens: 10 } },
      ],
    ]);
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(await editor.prompt(sessionId, 'List them.')).toEqual({
      stopReason: 'end_turn',
      _meta: {
        usage: {
          inputTokens: 250,
          outputTokens: 30,
          totalTokens: 280,
          thoughtTokens: 5,
          cachedReadTokens: 60,
          cachedWriteTokens: 10,
        },
      },
    });
  });

  it('ends an ask_question turn with the question and its suggestions; the next prompt answers it', async () => {
    const { editor, made } = await connect([
      [
        {
          toolCalls: [{ name: 'ask_question', arguments: { question: 'Which file?', suggestions: ['a.ts', 'b.ts'] } }],
        },
        complete('Fixed b.ts.'),
      ],
    ]);
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(await editor.prompt(sessionId, 'Fix the bug.')).toMatchObject({ stopReason: 'end_turn' });
    expect(editor.messageText(sessionId)).toBe('Which file?\n\n1. a.ts\n2. b.ts');
    expect(await editor.prompt(sessionId, 'b.ts')).toMatchObject({ stopReason: 'end_turn' });
    expect(made.providers[0]!.lastMessage(1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(made.providers[0]!.request(1).messages)).toContain('b.ts');
    made.providers[0]!.assertComplete();
  });

  it('maps the iteration cap to max_turn_requests, with the wrap-up summary as the message', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'list_files', arguments: {} }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Listed the files; nothing else done.' } }] },
    ]);
    const capped = new AcpExecutor(
      (setup) =>
        new DefaultAgent(provider, {
          workspace: setup.cwd,
          maxIterations: 2,
          tools: createWorkspaceTools({ include: ['list_files'] }),
        }),
      { log: () => undefined },
    );
    const editor = await fixture.connect(capped);
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(await editor.prompt(sessionId, 'Tidy up.')).toMatchObject({ stopReason: 'max_turn_requests' });
    expect(editor.messageText(sessionId)).toBe(
      'Stopped after 2 model calls, the most one prompt may make.\n\nListed the files; nothing else done.\n\nSend "continue" to go on.',
    );
  });

  it('answers a failed run with a JSON-RPC error carrying the typed error’s message and code', async () => {
    const { editor } = await connect([
      [
        {
          error: new ProviderError('The API key was rejected (401).', {
            code: 'authentication',
            provider: 'scripted',
            statusCode: 401,
          }),
        },
      ],
      [
        {
          error: new ProviderError('Bad request: too many tools.', {
            code: 'invalid_request',
            provider: 'scripted',
            statusCode: 400,
          }),
        },
      ],
    ]);
    const first = await editor.newSession(fixture.project.dir);
    const second = await editor.newSession(fixture.project.dir);
    await expect(editor.prompt(first, 'hi')).rejects.toMatchObject({
      code: -32000,
      message: 'The API key was rejected (401).',
      data: { code: 'authentication', statusCode: 401, retryable: false },
    });
    await expect(editor.prompt(second, 'hi')).rejects.toMatchObject({
      code: -32603,
      message: 'Bad request: too many tools.',
      data: { code: 'invalid_request', statusCode: 400, retryable: false },
    });
  });
});

describe('cancel', () => {
  it('cancels a turn in the middle of the model’s stream: cancelled, and the next prompt goes on', async () => {
    const { editor, made } = await connect([[{ text: 'Working on it', hang: true }, complete('Resumed.')]]);
    const sessionId = await editor.newSession(fixture.project.dir);
    const turn = editor.prompt(sessionId, 'Do a long thing.');
    await editor.waitForUpdate(sessionId, (update) => update.sessionUpdate === 'agent_message_chunk');
    await editor.agent.notify('session/cancel', { sessionId });
    expect(await turn).toMatchObject({ stopReason: 'cancelled' });
    expect(made.agents[0]!.running).toBe(false);
    expect(await editor.prompt(sessionId, 'Go on.')).toMatchObject({ stopReason: 'end_turn' });
    expect(editor.messageText(sessionId)).toBe('Working on itResumed.');
  });

  it('refuses a second prompt while one runs, and ignores a cancel of a session that does not exist', async () => {
    const { editor } = await connect([[{ text: 'Busy', hang: true }]]);
    const sessionId = await editor.newSession(fixture.project.dir);
    const turn = editor.prompt(sessionId, 'One.');
    await editor.waitForUpdate(sessionId, (update) => update.sessionUpdate === 'agent_message_chunk');
    await expect(editor.prompt(sessionId, 'Two.')).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('a prompt is already running in this session'),
    });
    await editor.agent.notify('session/cancel', { sessionId: 'sess_nobody' });
    await editor.agent.notify('session/cancel', { sessionId });
    expect(await turn).toMatchObject({ stopReason: 'cancelled' });
  });
});

describe('sessions', () => {
  it('runs two sessions at once on one connection, each with its own agent and updates', async () => {
    const { editor, made } = await connect([
      [{ text: 'first session', hang: true }],
      [{ text: 'second session', toolCalls: [{ name: 'converse', arguments: { message: 'Hello from two.' } }] }],
    ]);
    const other = createTempProject();
    try {
      const one = await editor.newSession(fixture.project.dir);
      const two = await editor.newSession(other.dir);
      const first = editor.prompt(one, 'Hi one.');
      await editor.waitForUpdate(one, (update) => update.sessionUpdate === 'agent_message_chunk');
      // The second session's whole turn runs while the first one's is still going.
      expect(await editor.prompt(two, 'Hi two.')).toMatchObject({ stopReason: 'end_turn' });
      expect(made.agents[0]!.running).toBe(true);
      await editor.agent.notify('session/cancel', { sessionId: one });
      expect(await first).toMatchObject({ stopReason: 'cancelled' });
      expect(editor.messageText(one)).toBe('first session');
      expect(editor.messageText(two)).toBe('second session\n\nHello from two.');
      expect(made.setups.map((setup) => setup.cwd)).toEqual([fixture.project.dir, other.dir]);
      expect(made.agents[0]).not.toBe(made.agents[1]);
      expect(JSON.stringify(made.providers[1]!.request(0).messages)).not.toContain('Hi one.');
    } finally {
      other.remove();
    }
  });

  it('answers a request for an unknown session with -32002 and the id, and the connection goes on', async () => {
    const { editor } = await connect([[complete('Still here.')]]);
    await expect(editor.prompt('sess_unknown', 'hi')).rejects.toMatchObject({
      code: -32002,
      data: { sessionId: 'sess_unknown' },
    });
    await expect(
      editor.agent.request('session/set_mode', { sessionId: 'sess_unknown', modeId: 'ask' }),
    ).rejects.toMatchObject({ code: -32002 });
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(await editor.prompt(sessionId, 'hi')).toMatchObject({ stopReason: 'end_turn' });
  });

  it('answers an unknown method with -32601, and params that break the schema with -32602', async () => {
    const { editor } = await connect([[complete('ok')]]);
    await expect(editor.agent.request('session/teleport', { sessionId: 'x' })).rejects.toMatchObject({ code: -32601 });
    await expect(editor.agent.request('session/new', { cwd: 42 } as never)).rejects.toMatchObject({ code: -32602 });
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(await editor.prompt(sessionId, 'hi')).toMatchObject({ stopReason: 'end_turn' });
  });

  it('closes a session with session/close: its turn ends, its agent is released, it is gone', async () => {
    const { editor, made } = await connect([[{ text: 'Busy', hang: true }]]);
    const sessionId = await editor.newSession(fixture.project.dir);
    const turn = editor.prompt(sessionId, 'Work.');
    await editor.waitForUpdate(sessionId, (update) => update.sessionUpdate === 'agent_message_chunk');
    expect(await editor.agent.request('session/close', { sessionId })).toEqual({});
    expect(await turn).toMatchObject({ stopReason: 'cancelled' });
    expect(made.disposed).toBe(1);
    await expect(editor.prompt(sessionId, 'Again.')).rejects.toMatchObject({ code: -32002 });
  });

  it('cancels every turn and releases every session when the editor goes away, and stops listening', async () => {
    const { editor, made } = await connect([[{ text: 'Busy', hang: true }], [complete('idle')]]);
    const busy = await editor.newSession(fixture.project.dir);
    await editor.newSession(fixture.project.dir);
    const turn = editor.prompt(busy, 'Work.').catch((error: unknown) => error);
    await editor.waitForUpdate(busy, (update) => update.sessionUpdate === 'agent_message_chunk');
    await editor.close();
    expect(made.disposed).toBe(2);
    expect(made.agents[0]!.running).toBe(false);
    expect(await turn).toBeInstanceOf(Error);
  });
});

describe('a session still opening when the editor goes', () => {
  it('is released once it has opened, so nothing it started outlives the connection', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const factoryCalled = new Promise<void>((resolve) => {
      started = resolve;
    });
    let disposed = 0;
    const executor = new AcpExecutor(
      async (setup) => {
        started();
        await gate;
        return {
          agent: new DefaultAgent(new ScriptedProvider([]), { workspace: setup.cwd }),
          dispose: () => {
            disposed += 1;
          },
        };
      },
      { log: () => undefined },
    );
    const editor = await fixture.connect(executor);
    const opening = editor.agent
      .request('session/new', { cwd: fixture.project.dir, mcpServers: [] })
      .catch((error) => error);
    await factoryCalled;
    await editor.close();
    release();
    await opening;
    await expect.poll(() => disposed).toBe(1);
  });
});

describe('close', () => {
  it('ends the connection from this side, as on SIGTERM: turns cancelled, sessions released', async () => {
    const { executor, made } = scriptedExecutor([[{ text: 'Busy', hang: true }]]);
    const editor = await fixture.connect(executor);
    const sessionId = await editor.newSession(fixture.project.dir);
    const turn = editor.prompt(sessionId, 'Work.').catch((error: unknown) => error);
    await editor.waitForUpdate(sessionId, (update) => update.sessionUpdate === 'agent_message_chunk');
    executor.close();
    await editor.listening;
    expect(made.disposed).toBe(1);
    expect(made.agents[0]!.running).toBe(false);
    // The editor, which never got an answer, sees the connection end.
    await editor.close();
    expect(await turn).toBeInstanceOf(Error);
  });
});

/** Reads newline-delimited JSON from the agent until the responses with these ids have come. */
async function readAnswers(readable: ReadableStream<Uint8Array>, ids: number[]): Promise<Map<unknown, unknown>> {
  const answers = new Map<unknown, unknown>();
  const reader = readable.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  while (!ids.every((id) => answers.has(id))) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines.filter((text) => text.trim() !== '')) {
      const message = JSON.parse(line) as { id?: unknown; method?: unknown };
      if (message.id !== undefined && message.method === undefined) answers.set(message.id, message);
    }
  }
  reader.releaseLock();
  return answers;
}
