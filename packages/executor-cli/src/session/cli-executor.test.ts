import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { LLMProvider } from '@agentloop/core';
import { createContainer, DefaultAgent, disposeContainer, ProviderError, resolveAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { createReadFileTool } from '@agentloop/workspace-tools';
import { describe, expect, it } from 'vitest';
import { NoProviderError } from '../config/index.js';
import { mcpSessionPlugins } from '../mcp/mcp-session-plugin.js';
import { MemoryOutput } from '../test-support/index.js';
import { CliExecutor } from './cli-executor.js';
import type { CliExecutorOptions } from './cli-executor-options.js';

const converse = (message: string): ScriptStep => ({ toolCalls: [{ name: 'converse', arguments: { message } }] });

/** A session fed the given lines (then end of input), on a scripted agent; resolves with what it wrote. */
async function session(
  lines: string[],
  steps: ScriptStep[],
  options: Partial<CliExecutorOptions> & { agent?: Promise<DefaultAgent> } = {},
) {
  const provider = new ScriptedProvider(steps);
  const agent = new DefaultAgent(provider, { tools: [createReadFileTool()] });
  const input = new PassThrough();
  const output = new MemoryOutput();
  const errorOutput = new MemoryOutput();
  input.end(lines.map((line) => `${line}\n`).join(''));
  const status = await new CliExecutor(options.agent ?? agent, {
    input,
    output,
    errorOutput,
    environment: {},
    handleSignals: false,
    modelLabel: 'scripted:model-a',
    ...options,
  }).run();
  return { status, text: output.text, errors: errorOutput.text, provider, agent };
}

describe('CliExecutor', () => {
  it('shows a banner and the prompt, runs each task and exits with 0 at the end of input', async () => {
    const { status, text } = await session(['hello'], [converse('Hi **there**.')]);
    expect(status).toBe(0);
    expect(text).toBe(
      'agentloop · scripted:model-a\nType a task. /help lists commands; Ctrl-C cancels a turn; Ctrl-D exits.\n› hello\nHi **there**.\n› \n',
    );
  });

  it('continues the conversation across turns', async () => {
    const { provider } = await session(['first', 'second'], [converse('One.'), converse('Two.')]);
    expect(provider.requests[1]?.messages.filter((message) => message.role === 'user')).toHaveLength(2);
  });

  it('answers a question by the number of a suggestion when not on a terminal', async () => {
    const ask: ScriptStep = {
      toolCalls: [{ name: 'ask_question', arguments: { question: 'Which?', suggestions: ['red', 'blue'] } }],
    };
    const { text, provider } = await session(['pick a colour', '2'], [ask, converse('Blue it is.')]);
    expect(text).toContain('? Which?\n  1. red\n  2. blue\n› 2\nBlue it is.\n');
    expect(provider.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'blue' }] });
  });

  it('runs the first task given on the command line at once', async () => {
    const { text } = await session([], [converse('Done.')], { initialInput: 'do it' });
    expect(text).toContain('› do it\nDone.\n');
  });

  it('lists the tools with /tools', async () => {
    const { text } = await session(['/tools'], []);
    expect(text).toMatch(
      // A description too long for its line goes on under itself.
      /Tools \(4\) — dimmed ones end the turn\n {2}task_completion .*\n {2}ask_question .*\n(?: {19}.*\n)? {2}converse .*\n(?: {19}.*\n)? {2}read_file {8}Read a UTF-8 text file/,
    );
  });

  it('reports tokens, tool calls and time with /usage', async () => {
    const steps: ScriptStep[] = [
      {
        toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }],
        usage: { inputTokens: 1000, outputTokens: 20 },
      },
      { ...converse('No file.'), usage: { inputTokens: 1100, outputTokens: 5 } },
    ];
    const { text } = await session(['read it', '/usage'], steps);
    expect(text).toMatch(/ {2}1 {5}1 {11}1,000 {10}20 .*\n {2}1 {5}2 {11}1,100 {11}5 .*\n {2}total {13}2,100 {10}25/);
    expect(text).toContain('Tool calls: 1 (1 failed)');
    expect(text).toMatch(/Wall time: .* working in 1 turn, .* session/);
  });

  it('switches the provider with /model and sends the next request to it', async () => {
    const next = new ScriptedProvider([converse('From B.')]);
    const switchModel = async (reference: string) => ({ provider: next as LLMProvider, label: reference });
    const { text, provider } = await session(['/model', '/model scripted:model-b', '/model', 'hi'], [], {
      switchModel,
    });
    expect(text).toContain('Model: scripted:model-a\n');
    expect(text).toContain('✓ Now using scripted:model-b. The conversation goes on with it.\n');
    expect(text).toContain('› /model\nModel: scripted:model-b\n');
    expect(text).toContain('From B.');
    expect(provider.requests).toHaveLength(0);
    expect(next.requests).toHaveLength(1);
  });

  it('says why a model switch failed and keeps the model', async () => {
    const switchModel = async () => {
      throw new NoProviderError('The anthropic provider needs an API key: set ANTHROPIC_API_KEY.');
    };
    const { text } = await session(['/model anthropic:claude-sonnet-4-6', '/model'], [], { switchModel });
    expect(text).toContain('✗ The anthropic provider needs an API key: set ANTHROPIC_API_KEY.\n');
    expect(text).toContain('Model: scripted:model-a');
  });

  it('redacts the user-info of a URL in the reason a model switch failed', async () => {
    const switchModel = async () => {
      throw new NoProviderError('No model is set for the server at http://user:password@host/v1.');
    };
    const { text } = await session(['/model gpt-5'], [], { switchModel });
    expect(text).toContain('✗ No model is set for the server at http://***@host/v1.\n');
    expect(text).not.toContain('password');
  });

  it('strips control sequences from the reason a model switch failed', async () => {
    const switchModel = async () => {
      throw new Error('server says\x1b]52;c;eA==\x07 no\x9b2J\u202e');
    };
    const { text } = await session(['/model gpt-5'], [], { switchModel });
    expect(text).toContain('✗ server says no\n');
  });

  it('lists tools without the control sequences of their descriptions', async () => {
    const plugged = new DefaultAgent(new ScriptedProvider([]), {
      tools: [{ ...createReadFileTool(), name: 'peek', description: 'Peeks\x1b]0;pwned\x07 at\x9b2J files\u202e.' }],
    });
    const { text } = await session(['/tools'], [], { agent: Promise.resolve(plugged) });
    expect(text).toMatch(/\n {2}peek +Peeks at files\.\n/);
  });

  it('switches the tool protocol with /protocol and refuses an unknown one', async () => {
    const { text, agent } = await session(['/protocol', '/protocol native', '/protocol json'], []);
    expect(text).toContain('Tool protocol: auto, now native for scripted:model-a ');
    expect(text).toContain('✓ Tool protocol: native from the next model call.');
    expect(text).toContain('✗ Unknown protocol "json": use auto, native or xml.');
    expect(agent.toolProtocol).toBe('native');
  });

  it('forgets the conversation with /clear', async () => {
    const { agent, text } = await session(['hello', '/clear'], [converse('Hi.')]);
    expect(text).toContain('✓ Conversation cleared.');
    expect(agent.memory.messages()).toHaveLength(0);
  });

  it('forgets the suggestions of an unanswered question on /clear', async () => {
    const ask: ScriptStep = {
      toolCalls: [{ name: 'ask_question', arguments: { question: 'Which?', suggestions: ['red', 'blue'] } }],
    };
    const { provider } = await session(['pick a colour', '/clear', '2'], [ask, converse('Two what?')]);
    expect(provider.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: '2' }] });
  });

  it('spins on a terminal, but not while the verbose log writes to the same terminal', async () => {
    const run = async (verbose: boolean) => {
      const input = new PassThrough();
      input.end('hello\n');
      const output = new MemoryOutput(true);
      const agent = new DefaultAgent(new ScriptedProvider([converse('Hi.')]), { tools: [] });
      await new CliExecutor(agent, {
        input,
        output,
        errorOutput: new MemoryOutput(true),
        environment: {},
        handleSignals: false,
        verbose,
      }).run();
      return output.text;
    };
    expect(await run(false)).toContain('\r\x1b[2K');
    expect(await run(true)).not.toContain('\r\x1b[2K');
  });

  it('switches verbose mode with /verbose, logging tool calls to stderr', async () => {
    const steps: ScriptStep[] = [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'nope.txt' } }] },
      converse('Done.'),
    ];
    const { text, errors } = await session(['/verbose on', 'read', '/verbose'], steps);
    expect(text).toContain('Verbose mode on.\n');
    expect(text).toContain('Verbose mode off.\n');
    expect(errors).toMatch(
      /^· tool call read_file \(call_1_1\): path: "nope\.txt"\n· tool error read_file \(call_1_1\) in .*, tool_failed: /,
    );
  });

  it('ends the session with /exit, ignoring the lines after it', async () => {
    const { status, text } = await session(['/exit', 'never run'], []);
    expect(status).toBe(0);
    expect(text).not.toContain('never run');
  });

  it('answers an unknown command with a hint', async () => {
    expect((await session(['/frobnicate'], [])).text).toContain(
      '✗ Unknown command /frobnicate. /help lists the commands.',
    );
  });

  it('lists the commands and keys with /help', async () => {
    const { text } = await session(['/help'], []);
    for (const command of [
      '/help',
      '/tools',
      '/model [provider:model]',
      '/protocol [auto|native|xml]',
      '/clear',
      '/usage',
      '/verbose [on|off]',
      '/exit',
    ]) {
      expect(text).toContain(`  ${command}`);
    }
  });

  it('exits with 2 and the message when the agent cannot be built for a setup reason', async () => {
    const failed = Promise.reject(new NoProviderError('No model provider is configured.'));
    const { status, errors } = await session(['hello'], [], { agent: failed });
    expect(status).toBe(2);
    expect(errors).toBe('✗ No model provider is configured.\n');
  });

  it('redacts the user-info of a URL when the agent cannot be built', async () => {
    const failed = Promise.reject(new NoProviderError('No model is set for the server at http://u:password@host/v1.'));
    const { errors } = await session(['hello'], [], { agent: failed });
    expect(errors).toBe('✗ No model is set for the server at http://***@host/v1.\n');
  });

  it('strips control sequences from the reason the agent cannot be built', async () => {
    const failed = Promise.reject(new Error('disk\x1b]0;pwned\x07 on\x9b2J fire\u202e'));
    const { errors } = await session(['hello'], [], { agent: failed });
    expect(errors).toBe('✗ disk on fire\n');
  });

  it('exits with 1 when the agent cannot be built for another reason', async () => {
    const { status, errors } = await session(['hello'], [], { agent: Promise.reject(new Error('disk on fire')) });
    expect(status).toBe(1);
    expect(errors).toBe('✗ disk on fire\n');
  });

  it('says once, before the first turn, that tools go through the XML protocol for a model without native tools', async () => {
    const xml = (message: string): ScriptStep => ({
      text: `<tool>{"server_name": "local", "tool_name": "converse", "arguments": {"message": "${message}"}}</tool>`,
    });
    const textOnly = new DefaultAgent(
      new ScriptedProvider([xml('One.'), xml('Two.')], { capabilities: { nativeTools: false } }),
      {
        tools: [],
      },
    );
    const { text } = await session(['first', 'second', '/protocol'], [], { agent: Promise.resolve(textOnly) });
    expect(text).toContain(
      '› first\n⇄ Tools go through the XML protocol: scripted:model-a has no native tool calling.\nOne.\n› second\nTwo.\n',
    );
    expect(text.match(/⇄/g)).toHaveLength(1);
    expect(text).toContain('Tool protocol: auto, now xml for scripted:model-a ');
  });

  it('names no protocol for a model with native tools, nor when XML was chosen on purpose', async () => {
    const { text } = await session(['hello'], [converse('Hi.')]);
    expect(text).not.toContain('⇄');
    const chosen = new DefaultAgent(
      new ScriptedProvider([
        { text: '<tool>{"server_name": "local", "tool_name": "converse", "arguments": {"message": "Hi."}}</tool>' },
      ]),
      { toolProtocol: 'xml' },
    );
    expect((await session(['hello'], [], { agent: Promise.resolve(chosen) })).text).not.toContain('⇄');
  });

  it('shows the switch to XML once when the server rejects native tools, and not again at the next turn', async () => {
    const rejected = new ProviderError('gemma does not support tools', {
      code: 'tools_unsupported',
      provider: 'scripted',
      statusCode: 400,
    });
    const xml = '<tool>{"server_name": "local", "tool_name": "converse", "arguments": {"message": "Fine."}}</tool>';
    const { text } = await session(['first', 'second'], [{ error: rejected }, { text: xml }, { text: xml }]);
    expect(text.match(/⇄/g)).toEqual(['⇄']);
    expect(text).toContain(
      '› first\n⇄ The server rejected native tool calls: tools go through the XML protocol from now on.\nFine.\n',
    );
  });

  it('keeps no prompt history when its input is not a terminal', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'agentloop-history-'));
    try {
      const file = join(directory, 'history');
      await session(['/help', 'hello'], [converse('Hi.')], { historyFile: file });
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

/** Resolves once what was written to `output` matches `pattern`: waits for the output, not for a time. */
function untilWritten(output: MemoryOutput, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const write = output.write.bind(output);
    output.write = (text: string) => {
      const written = write(text);
      if (pattern.test(output.text)) resolve();
      return written;
    };
  });
}

/** A container whose MCP server `broken` exits before its handshake, after writing `stderr`. */
async function containerWithBrokenServer(provider: ScriptedProvider, stderr: string) {
  const script = `process.stderr.write(${JSON.stringify(stderr)}); process.exit(2)`;
  const plugins = await mcpSessionPlugins(
    { broken: { command: process.execPath, args: ['-e', script], file: '/config.toml' } },
    {},
  );
  return createContainer({ provider, plugins });
}

describe('CliExecutor with an MCP server that failed to start', () => {
  it('interrupts the prompt to say so once the agent is ready, then takes the task as usual', async () => {
    const container = containerWithBrokenServer(new ScriptedProvider([converse('Hi.')]), 'DOCS_TOKEN is not set\n');
    const input = new PassThrough();
    // One stream for both, so that the order of the prompt, the warning and the turn shows.
    const terminal = new MemoryOutput();
    const promptAgain = untilWritten(terminal, /\/mcp shows more\.\n› $/);
    try {
      const running = new CliExecutor(container.then(resolveAgent), {
        input,
        output: terminal,
        errorOutput: terminal,
        environment: {},
        handleSignals: false,
        modelLabel: 'scripted:model-a',
      }).run();
      await promptAgain;
      input.end('hello\n');
      expect(await running).toBe(0);
      expect(terminal.text).toBe(
        [
          'agentloop · scripted:model-a',
          'Type a task. /help lists commands; Ctrl-C cancels a turn; Ctrl-D exits.',
          '› ',
          '⚠ MCP server "broken" failed to start: it closed the connection during the MCP handshake (it exited with code 2); it said: DOCS_TOKEN is not set. Its tools are missing; /mcp shows more.',
          '› hello',
          'Hi.',
          '› ',
          '',
        ].join('\n'),
      );
    } finally {
      await disposeContainer(await container);
    }
  });

  it('keeps what was typed at the prompt it interrupts, on a terminal', async () => {
    const provider = new ScriptedProvider([converse('Hi.')]);
    const container = containerWithBrokenServer(provider, '');
    const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
    const terminal = new MemoryOutput(true);
    const redrawn = untilWritten(terminal, /\/mcp shows more\.\n[\s\S]*hel/);
    try {
      const running = new CliExecutor(container.then(resolveAgent), {
        input,
        output: terminal,
        errorOutput: terminal,
        environment: {},
        handleSignals: false,
        historyFile: false,
        modelLabel: 'scripted:model-a',
      }).run();
      input.write('hel');
      await redrawn;
      const answered = untilWritten(terminal, /Hi\.\n[\s\S]*› /);
      input.write('lo\r');
      await answered;
      input.write('\x04');
      expect(await running).toBe(0);
      expect(provider.requests[0]?.messages.at(-1)).toEqual({
        role: 'user',
        content: [{ type: 'text', text: 'hello' }],
      });
    } finally {
      await disposeContainer(await container);
    }
  });
});
