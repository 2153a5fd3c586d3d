import { DefaultAgent, defineTool, ProviderError } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { createListFilesTool } from '@agentloop/workspace-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryOutput } from '../test-support/index.js';
import { runOnce } from './run-once.js';

async function run(
  steps: ScriptStep[],
  options: {
    json?: boolean;
    tty?: boolean;
    maxIterations?: number;
    redact?: (text: string) => string;
    verbose?: boolean;
    environment?: Record<string, string>;
  } = {},
) {
  const agent = new DefaultAgent(new ScriptedProvider(steps), {
    tools: [createListFilesTool()],
    maxIterations: options.maxIterations ?? 10,
    workspace: import.meta.dirname,
  });
  const output = new MemoryOutput(options.tty ?? false);
  const errorOutput = new MemoryOutput(options.tty ?? false);
  const status = await runOnce(agent, 'the task', {
    output,
    errorOutput,
    json: options.json ?? false,
    verbose: options.verbose ?? false,
    environment: options.environment ?? { NO_COLOR: '1' },
    handleSignals: false,
    ...(options.redact ? { redact: options.redact } : {}),
  });
  return { status, stdout: output.text, stderr: errorOutput.text };
}

const call = (name: string, args: unknown): ScriptStep => ({ toolCalls: [{ name, arguments: args }] });

describe('runOnce', () => {
  it('exits with 0 and prints the result alone on stdout, status lines on stderr, when stdout is a pipe', async () => {
    const result = await run([
      { text: 'Working on it.', ...call('task_completion', { result: 'All done.', artifacts: ['a.md', 'b.md'] }) },
    ]);
    expect(result).toEqual({
      status: 0,
      stdout: 'All done.\n',
      stderr: 'Working on it.\n✔ Done\nArtifacts:\n  • a.md\n  • b.md\n',
    });
  });

  it('keeps status lines off stdout on a terminal too', async () => {
    const { stdout, stderr } = await run(
      [{ text: 'Working on it.', ...call('task_completion', { result: 'All done.', artifacts: ['a.md'] }) }],
      { tty: true },
    );
    expect(stdout).toBe('All done.\n');
    expect(stderr).toBe('Working on it.\n✔ Done\nArtifacts:\n  • a.md\n');
  });

  it('spins on a terminal stderr, but not with the verbose log writing to it', async () => {
    const steps = [{ text: 'Working on it.', ...call('task_completion', { result: 'All done.' }) }];
    const spinning = await run(steps, { tty: true, environment: {} });
    expect(spinning.stderr).toContain('\r\x1b[2K');
    expect(spinning.stdout).not.toContain('\x1b[2K');
    const verbose = await run(steps, { tty: true, environment: {}, verbose: true });
    expect(verbose.stderr).not.toContain('\r\x1b[2K');
  });

  it('exits with 0 for a conversational answer', async () => {
    expect(await run([call('converse', { message: 'Hello!' })])).toMatchObject({ status: 0, stdout: 'Hello!\n' });
  });

  it('exits with 3 for a question it cannot ask', async () => {
    expect(await run([call('ask_question', { question: 'Which?' })])).toMatchObject({
      status: 3,
      stdout: '? Which?\n',
    });
  });

  it('exits with 4 at the iteration limit', async () => {
    const result = await run([call('list_files', {}), call('list_files', {})], { maxIterations: 2 });
    expect(result.status).toBe(4);
    expect(result.stderr).toContain('⚠ Stopped after 2 model calls');
  });

  it("exits with 4 at the iteration limit with the wrap-up's summary alone on stdout", async () => {
    const result = await run(
      [
        call('list_files', {}),
        call('task_completion', { result: 'Listed the files; reading them remains.', artifacts: ['files.txt'] }),
      ],
      { maxIterations: 2 },
    );
    expect(result.status).toBe(4);
    expect(result.stdout).toBe('Listed the files; reading them remains.\n');
    expect(result.stderr).toContain(
      "⚠ Stopped after 2 model calls: the iteration limit was reached before the task was done. The agent's summary of what it did and what remains:\n" +
        'Artifacts:\n  • files.txt\n' +
        'Run it again with a higher --max-iterations (or max_iterations in the configuration).\n',
    );
    expect(result.stderr).not.toContain('Listed the files');
  });

  it('exits with 1 and one line on stderr for a failed run', async () => {
    const error = new ProviderError('invalid x-api-key', {
      code: 'authentication',
      provider: 'anthropic',
      statusCode: 401,
    });
    const result = await run([{ error }]);
    expect(result).toEqual({
      status: 1,
      stdout: '',
      stderr: '✗ Anthropic rejected the API key (HTTP 401): check the API key.\n',
    });
  });

  it('prints every event as a JSON line with json, and nothing else on stdout', async () => {
    const result = await run([call('task_completion', { result: 'ok' })], { json: true });
    const types = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).type);
    expect(types).toEqual([
      'loop-start',
      'loop-iteration',
      'tool-call-start',
      'usage',
      'tool-call',
      'tool-result',
      'task-complete',
      'loop-end',
    ]);
    expect(result.status).toBe(0);
  });

  it('passes every JSON line and the error line through the session redactor', async () => {
    const secret = 'sk-session-secret-0123';
    const redact = (text: string) => text.replaceAll(secret, '[REDACTED]');
    const completed = await run([call('task_completion', { result: `the key is ${secret}` })], { json: true, redact });
    expect(completed.stdout).toContain('the key is [REDACTED]');
    expect(completed.stdout).not.toContain(secret);
    const error = new ProviderError(`rejected ${secret}`, {
      code: 'server_error',
      provider: 'openai',
      retryable: false,
    });
    const failed = await run([{ error }], { json: true, redact });
    expect(failed.stdout + failed.stderr).not.toContain(secret);
    expect(failed.stderr).toBe('rejected [REDACTED] (server_error)\n');
  });

  it('strips control sequences from the error line on stderr in json mode', async () => {
    const error = new ProviderError('bad\x1b]0;pwned\x07 \x9b2Jgateway\u202e', {
      code: 'server_error',
      provider: 'openai',
      retryable: false,
    });
    const result = await run([{ error }], { json: true });
    expect(result.stderr).toBe('bad gateway (server_error)\n');
  });

  it('adds the error line on stderr in json mode', async () => {
    const error = new ProviderError('boom', { code: 'server_error', provider: 'openai', retryable: false });
    const result = await run([{ error }], { json: true });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('boom (server_error)\n');
    expect(JSON.parse(result.stdout.trimEnd().split('\n').at(-1) as string).result.error).toMatchObject({
      code: 'server_error',
      message: 'boom',
    });
  });

  it('says on stderr that tools go through the XML protocol for a model without native tools', async () => {
    const agent = new DefaultAgent(
      new ScriptedProvider(
        [{ text: '<tool>{"server_name": "local", "tool_name": "converse", "arguments": {"message": "Hi."}}</tool>' }],
        { capabilities: { nativeTools: false, modelId: 'tiny-model' } },
      ),
      {},
    );
    const output = new MemoryOutput();
    const errorOutput = new MemoryOutput();
    const options = { output, errorOutput, environment: { NO_COLOR: '1' }, handleSignals: false };
    expect(await runOnce(agent, 'hi', options)).toBe(0);
    expect(output.text).toBe('Hi.\n');
    expect(errorOutput.text).toBe('⇄ Tools go through the XML protocol: tiny-model has no native tool calling.\n');
  });

  describe('approvals', () => {
    const written: string[] = [];
    const writeNote = defineTool({
      name: 'write_note',
      description: 'Writes a note.',
      parameters: z.object({ text: z.string() }),
      annotations: { readOnly: false, destructive: true, openWorld: false },
      execute: ({ text }) => {
        written.push(text);
        return 'written';
      },
    });
    const steps = (): ScriptStep[] => [
      {
        toolCalls: [
          { name: 'write_note', arguments: { text: 'a' } },
          { name: 'write_note', arguments: { text: 'b' } },
        ],
      },
      call('task_completion', { result: 'Could not write.' }),
    ];

    async function runAsking(json: boolean, explainRefusal?: (tool: string) => string | undefined) {
      written.length = 0;
      const provider = new ScriptedProvider(steps());
      const agent = new DefaultAgent(provider, { tools: [writeNote], approval: 'ask', now: () => 0 });
      const output = new MemoryOutput();
      const errorOutput = new MemoryOutput();
      const options = {
        output,
        errorOutput,
        json,
        environment: { NO_COLOR: '1' },
        handleSignals: false,
        ...(explainRefusal ? { explainRefusal } : {}),
      };
      const status = await runOnce(agent, 'write two notes', options);
      return { status, stdout: output.text, stderr: errorOutput.text, provider };
    }

    it('refuses at once a call that needs approval, tells the model why, and says once how to allow them', async () => {
      const { status, stdout, stderr, provider } = await runAsking(false);
      expect(status).toBe(0);
      expect(written).toEqual([]);
      expect(stdout).toBe('Could not write.\n');
      expect(stderr.match(/⊘/g)).toHaveLength(1);
      expect(stderr).toContain(
        '⊘ write_note needs approval, and agentloop run asks no one: refused, like every such call of this run. --approval yolo, or an allow rule under [approval] in the configuration, lets them run.\n',
      );
      expect(stderr).toMatch(/✗ write_note\(text: "a"\) 0 ms → error: Not run: the user declined this call/);
      const results = provider.requests[1]?.messages.at(-1)?.content;
      expect(results).toMatchObject([
        {
          type: 'tool-result',
          isError: true,
          content: expect.stringContaining('no one is here to approve calls (this is agentloop run)'),
        },
        { type: 'tool-result', isError: true },
      ]);
    });

    it("says the executor's own reason for a refusal where it knows one, instead of the generic line", async () => {
      const asked: string[] = [];
      const { stderr } = await runAsking(false, (tool) => {
        asked.push(tool);
        return '⊘ write_note was refused: no sandbox.';
      });
      expect(asked).toEqual(['write_note']);
      expect(stderr).toContain('⊘ write_note was refused: no sandbox.\n');
      expect(stderr).not.toContain('an allow rule');
    });

    it('prints the approval events as JSON lines with json', async () => {
      const { stdout, stderr } = await runAsking(true);
      expect(stderr).toBe('');
      const events = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line))
        .filter((event) => event.type.startsWith('approval-'));
      expect(events).toMatchObject([
        {
          type: 'approval-requested',
          name: 'write_note',
          arguments: { text: 'a' },
          reason: 'write_note can change things',
        },
        { type: 'approval-requested', name: 'write_note', arguments: { text: 'b' } },
        { type: 'approval-resolved', name: 'write_note', decision: 'deny' },
        { type: 'approval-resolved', name: 'write_note', decision: 'deny' },
      ]);
    });
  });
});

describe('runOnce with a sub-agent', () => {
  it("refuses a sub-agent's approval request at once, as it refuses the agent's own", async () => {
    const ran: string[] = [];
    const note = defineTool({
      name: 'note',
      description: 'Notes something.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        ran.push(text);
        return 'noted';
      },
    });
    const child = new DefaultAgent(
      new ScriptedProvider([call('note', { text: 'rain' }), call('task_completion', { result: 'Could not note.' })]),
      { tools: [note], approval: 'ask' },
    );
    const agent = new DefaultAgent(
      new ScriptedProvider([
        call('researcher', { task: 'Note the rain.' }),
        call('task_completion', { result: 'The researcher could not note it.' }),
      ]),
      { tools: [child.asTool({ name: 'researcher', description: 'Researches.' })] },
    );
    const output = new MemoryOutput(false);
    const errorOutput = new MemoryOutput(false);
    const status = await runOnce(agent, 'the task', {
      output,
      errorOutput,
      json: false,
      verbose: false,
      environment: { NO_COLOR: '1' },
      handleSignals: false,
    });
    expect(status).toBe(0);
    expect(ran).toEqual([]);
    expect(errorOutput.text).toContain('⊘ note needs approval, and agentloop run asks no one');
    expect(output.text).toBe('The researcher could not note it.\n');
  });
});
