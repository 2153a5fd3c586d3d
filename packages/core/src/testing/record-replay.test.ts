import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LLMProvider, ModelChunk } from '@agentloop/spec';
import { AgentloopError, CancelledError, ProviderError } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentOptions } from '../agent/agent-options.js';
import { DefaultAgent } from '../agent/default-agent.js';
import type { AgentEvent } from '../events/index.js';
import { complete, echoTool } from '../test-support/agent-harness.js';
import { CassetteError } from './cassette-error.js';
import { recordProvider } from './record-provider.js';
import { replayProvider } from './replay-provider.js';
import { ScriptedProvider } from './scripted-provider.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'agentloop-cassette-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** An agent whose clock, ids and session are fixed, so two runs of it emit the same events. */
function agentOn(provider: LLMProvider, options: AgentOptions = {}) {
  const agent = new DefaultAgent(provider, {
    now: () => 0,
    createId: () => 'run-1',
    sessionId: 'session-1',
    workspace: '/work',
    tools: [echoTool],
    ...options,
  });
  const events: AgentEvent[] = [];
  agent.onAny((event) => events.push(event));
  return { agent, events };
}

/**
 * Events as JSON, so errors compare by their fields; the XML protocol's call ids carry a random part per
 * model call, so that part is masked.
 */
const plain = (events: AgentEvent[]) =>
  JSON.parse(JSON.stringify(events).replace(/xml_[0-9a-f]{8}_/g, 'xml_…_')) as unknown;

const rateLimited = new ProviderError('anthropic API error (429 rate_limit_error): slow down', {
  code: 'rate_limit',
  provider: 'anthropic',
  statusCode: 429,
  retryAfterMs: 250,
});

describe('recordProvider and replayProvider', () => {
  it('replay a recorded native run through a fresh agent: the same result and the same events', async () => {
    const file = join(folder, 'native.jsonl');
    const scripted = new ScriptedProvider(
      [
        {
          thinking: { text: 'Echo first.', signature: 'sig-1' },
          text: 'Let me echo.',
          toolCalls: [
            { name: 'echo', arguments: { text: 'a' } },
            { name: 'echo', arguments: { text: 'b' } },
          ],
          usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 50 },
        },
        // A retry that discards what the step streamed so far, as a real provider yields it.
        {
          text: 'Half an ans',
          chunks: [{ type: 'retry', attempt: 1, delayMs: 250, error: rateLimited, discardOutput: true }],
        },
        complete('Echoed a and b.'),
      ],
      { chunkSize: 4 },
    );
    const recorded = agentOn(recordProvider(scripted, file));
    const original = await recorded.agent.run('Echo a and b.');
    scripted.assertComplete();

    const replay = replayProvider(file);
    const replayed = agentOn(replay);
    const again = await replayed.agent.run('Echo a and b.');
    replay.assertComplete();

    expect(original.exit).toBe('task_completion');
    expect(again).toEqual(original);
    expect(plain(replayed.events)).toEqual(plain(recorded.events));
    const retry = replayed.events.find((event) => event.type === 'retry');
    expect(retry?.type === 'retry' && retry.error).toBeInstanceOf(ProviderError);
    expect(retry?.type === 'retry' && retry.error).toMatchObject({
      code: 'rate_limit',
      statusCode: 429,
      retryAfterMs: 250,
    });
  });

  it('replay a recorded XML-protocol run: the same result and the same events', async () => {
    const file = join(folder, 'xml.jsonl');
    const block = (name: string, args: unknown) =>
      `<tool>\n${JSON.stringify({ server_name: 'local', tool_name: name, arguments: args })}\n</tool>`;
    const scripted = new ScriptedProvider(
      [
        {
          text: `<thinking>Echo it.</thinking>I will echo.\n${block('echo', { text: 'x' })}`,
          finishReason: 'stop-sequence',
        },
        { text: block('task_completion', { result: 'Echoed x.' }), finishReason: 'stop-sequence' },
      ],
      { chunkSize: 5, capabilities: { nativeTools: false } },
    );
    const recorded = agentOn(recordProvider(scripted, file), { toolProtocol: 'auto' });
    const original = await recorded.agent.run('Echo x.');

    const replay = replayProvider(file);
    expect(replay.capabilities.nativeTools).toBe(false);
    const replayed = agentOn(replay, { toolProtocol: 'auto' });
    const again = await replayed.agent.run('Echo x.');
    replay.assertComplete();

    expect(original).toMatchObject({ exit: 'task_completion', payload: { result: 'Echoed x.' } });
    expect(replayed.agent.activeToolProtocol).toBe('xml');
    expect(again).toEqual(original);
    expect(plain(replayed.events)).toEqual(plain(recorded.events));
  });

  it('writes the cassette readable by its owner alone, also over an older file of another mode', () => {
    const file = join(folder, 'private.jsonl');
    writeFileSync(file, 'old', { mode: 0o644 });
    recordProvider(new ScriptedProvider([]), file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes one JSON line per request, chunk and ending, keys sorted, the same bytes for the same run', async () => {
    const record = async (file: string) => {
      const scripted = new ScriptedProvider([{ text: 'Hi!', usage: { outputTokens: 2, inputTokens: 7 } }]);
      const provider = recordProvider(scripted, file);
      const request = { toolChoice: 'auto' as const, tools: [], messages: [], systemPrompt: 'Be brief.' };
      for await (const _chunk of provider.stream({ ...request, signal: new AbortController().signal })) {
        // read it all
      }
      expect(provider.turns).toBe(1);
      return readFileSync(file, 'utf8');
    };
    const first = await record(join(folder, 'a.jsonl'));
    const lines = first.trimEnd().split('\n');

    expect(lines.slice(1)).toEqual([
      '{"type":"request","turn":1,"request":{"messages":[],"systemPrompt":"Be brief.","toolChoice":"auto","tools":[]}}',
      '{"type":"chunk","turn":1,"chunk":{"text":"Hi!","type":"text-delta"}}',
      '{"type":"chunk","turn":1,"chunk":{"type":"usage","usage":{"inputTokens":7,"outputTokens":2}}}',
      '{"type":"chunk","turn":1,"chunk":{"reason":"stop","type":"finish"}}',
      '{"type":"end","turn":1,"outcome":"finished"}',
    ]);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: 'cassette',
      format: 'agentloop-cassette',
      version: 1,
      provider: { id: 'scripted', capabilities: { modelId: 'scripted-model', nativeTools: true } },
    });
    expect(await record(join(folder, 'b.jsonl'))).toBe(first);
  });

  it('redacts API keys, credential fields and the given secrets, and a replay with the same secrets matches', async () => {
    const file = join(folder, 'secrets.jsonl');
    const input = 'Use key sk-ant-api03-abcdefghijklmnopqrstuvwxyz and say hunter2, Bearer abcdefghijklmnop123 please.';
    const script = () =>
      new ScriptedProvider([
        { toolCalls: [{ name: 'echo', arguments: { text: 'hunter2', apiKey: 'plain-looking-key' } }] },
        complete('done'),
      ]);
    const recorded = agentOn(recordProvider(script(), file, { secrets: ['hunter2'] }));
    const original = await recorded.agent.run(input);

    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-ant-api03');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('abcdefghijklmnop123');
    expect(text).not.toContain('plain-looking-key');
    expect(text).toContain('Use key [REDACTED] and say [REDACTED], Bearer [REDACTED] please.');
    // In the tool-call chunk's JSON text as in the decoded arguments history keeps.
    expect(text).toContain('"input":"{\\"text\\":\\"[REDACTED]\\",\\"apiKey\\":\\"[REDACTED]\\"}"');
    expect(text).toContain('"arguments":{"apiKey":"[REDACTED]","text":"[REDACTED]"}');

    const replay = replayProvider(file, { secrets: ['hunter2'] });
    const again = await agentOn(replay).agent.run(input);
    replay.assertComplete();
    expect(again.exit).toBe(original.exit);
  });

  it('fails a request that differs from the recorded one with a readable diff, and assertComplete throws it', async () => {
    const file = join(folder, 'mismatch.jsonl');
    await agentOn(recordProvider(new ScriptedProvider([complete('ok')]), file)).agent.run(
      'What is the capital of France?',
    );

    const replay = replayProvider(file);
    const result = await agentOn(replay).agent.run('What is the capital of Spain?');

    expect(result.exit).toBe('error');
    expect(result.error).toBeInstanceOf(CassetteError);
    expect(result.error).toMatchObject({
      code: 'cassette_mismatch',
      turn: 1,
      file,
      difference: {
        path: 'messages[0].content[0].text',
        expected: 'What is the capital of France?',
        actual: 'What is the capital of Spain?',
      },
    });
    expect(result.error?.message).toBe(
      [
        `replayProvider: request #1 does not match turn 1 of ${file}.`,
        '  at messages[0].content[0].text:',
        '    expected: "What is the capital of France?"',
        '    actual:   "What is the capital of Spain?"',
        `${' '.repeat('    expected: "What is the capital of '.length)}^ first difference at character 23`,
        'If the change is intended, record the cassette again.',
      ].join('\n'),
    );
    expect(() => replay.assertComplete()).toThrow(result.error);
  });

  it('compares the options that reach the model (settings), not the signal', async () => {
    const file = join(folder, 'settings.jsonl');
    await agentOn(recordProvider(new ScriptedProvider([complete('ok')]), file), {
      settings: { maxTokens: 1000 },
    }).agent.run('go');

    const sameSettings = replayProvider(file);
    expect((await agentOn(sameSettings, { settings: { maxTokens: 1000 } }).agent.run('go')).exit).toBe(
      'task_completion',
    );
    const otherSettings = replayProvider(file);
    const result = await agentOn(otherSettings, { settings: { maxTokens: 2000 } }).agent.run('go');
    expect(result.error).toMatchObject({ code: 'cassette_mismatch', difference: { path: 'settings.maxTokens' } });
  });

  it('fails a request past the last recorded turn with cassette_exhausted', async () => {
    const file = join(folder, 'short.jsonl');
    const script = new ScriptedProvider([{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }, complete('ok')]);
    await agentOn(recordProvider(script, file)).agent.run('go');
    // The cassette loses its second turn, as if the recorded run had made one call fewer.
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, lines.filter((line) => !line.includes('"turn":2')).join('\n'));

    const replay = replayProvider(file);
    const result = await agentOn(replay).agent.run('go');
    expect(result.error).toMatchObject({ code: 'cassette_exhausted', turn: 2 });
    expect(result.error?.message).toContain('request #2 has no recorded turn');
    expect(() => replay.assertComplete()).toThrow(/request #2 has no recorded turn/);
  });

  it('assertComplete fails when recorded turns were never requested, and passes once they were', async () => {
    const file = join(folder, 'long.jsonl');
    const request = () => ({
      systemPrompt: '',
      messages: [],
      tools: [],
      toolChoice: 'auto' as const,
      signal: new AbortController().signal,
    });
    const readAll = async (stream: AsyncIterable<readonly ModelChunk[]>) => {
      for await (const _batch of stream) {
        // read it all
      }
    };
    const recorder = recordProvider(new ScriptedProvider([{ text: 'one' }, { text: 'two' }]), file);
    await readAll(recorder.stream(request()));
    await readAll(recorder.stream(request()));

    const replay = replayProvider(file);
    await readAll(replay.stream(request()));
    expect(replay.remaining).toBe(1);
    expect(() => replay.assertComplete()).toThrow(
      expect.objectContaining({
        code: 'cassette_leftover',
        message: expect.stringContaining('1 of the 2 recorded turns'),
      }),
    );
    await readAll(replay.stream(request()));
    expect(replay.assertComplete()).toBeUndefined();
  });

  it('replays a turn that ended in a ProviderError as the same typed error', async () => {
    const file = join(folder, 'error.jsonl');
    const failure = new ProviderError('anthropic API error (400 invalid_request_error): bad tool_result', {
      code: 'invalid_request',
      provider: 'anthropic',
      statusCode: 400,
    });
    const recorded = agentOn(recordProvider(new ScriptedProvider([{ text: 'Par', error: failure }]), file));
    const original = await recorded.agent.run('go');

    const replay = replayProvider(file);
    const replayed = agentOn(replay);
    const again = await replayed.agent.run('go');
    replay.assertComplete();

    expect(again.exit).toBe('error');
    expect(again.error).toBeInstanceOf(ProviderError);
    expect(again.error).toMatchObject({
      code: 'invalid_request',
      provider: 'anthropic',
      statusCode: 400,
      retryable: false,
      action: 'stop',
      message: failure.message,
    });
    expect(again).toEqual(original);
    expect(plain(replayed.events)).toEqual(plain(recorded.events));
  });

  it('replays other thrown errors by their code, or as a plain Error with their message', async () => {
    const file = join(folder, 'errors.jsonl');
    const provider = recordProvider(
      new ScriptedProvider([
        { error: new AgentloopError('overloaded', { code: 'overloaded', retryable: true }) },
        { error: new TypeError('fetch failed') },
      ]),
      file,
    );
    const request = { systemPrompt: '', messages: [], tools: [], toolChoice: 'auto' as const };
    const failureOf = async (stream: AsyncIterable<readonly ModelChunk[]>) => {
      try {
        for await (const _batch of stream) {
          // read it all
        }
      } catch (error) {
        return error;
      }
      return undefined;
    };
    await failureOf(provider.stream({ ...request, signal: new AbortController().signal }));
    await failureOf(provider.stream({ ...request, signal: new AbortController().signal }));

    const replay = replayProvider(file);
    const first = await failureOf(replay.stream({ ...request, signal: new AbortController().signal }));
    const second = await failureOf(replay.stream({ ...request, signal: new AbortController().signal }));
    expect(AgentloopError.isInstance(first)).toBe(true);
    expect(first).toMatchObject({ code: 'overloaded', retryable: true, action: 'retry' });
    expect(second).toBeInstanceOf(Error);
    expect(second).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });

  it('replays a cancelled run: the recorded stream waits for the signal, as the real one did', async () => {
    const file = join(folder, 'cancel.jsonl');
    const record = agentOn(recordProvider(new ScriptedProvider([{ text: 'Working on it', hang: true }]), file));
    record.agent.once('message-content', () => record.agent.cancel());
    const original = await record.agent.run('go');

    const replay = replayProvider(file);
    const replayed = agentOn(replay);
    replayed.agent.once('message-content', () => replayed.agent.cancel());
    const again = await replayed.agent.run('go');
    replay.assertComplete();

    expect(original.exit).toBe('cancelled');
    expect(again.exit).toBe('cancelled');
    expect(again.error).toBeInstanceOf(CancelledError);
    expect(again.messages).toEqual(original.messages);
  });

  it('refuses a missing file, a file that is not a cassette, and a cassette of another version', () => {
    expect(() => replayProvider(join(folder, 'nope.jsonl'))).toThrow(
      expect.objectContaining({ code: 'cassette_invalid', message: expect.stringContaining('Record it first') }),
    );
    const notACassette = join(folder, 'other.jsonl');
    writeFileSync(notACassette, '{"hello":"world"}\n');
    expect(() => replayProvider(notACassette)).toThrow(/is not an agentloop cassette/);
    const newer = join(folder, 'newer.jsonl');
    writeFileSync(newer, '{"type":"cassette","format":"agentloop-cassette","version":2,"provider":{}}\n');
    expect(() => replayProvider(newer)).toThrow(/version 2; this version of @agentloop\/core reads version 1/);
    const broken = join(folder, 'broken.jsonl');
    writeFileSync(
      broken,
      '{"type":"cassette","format":"agentloop-cassette","version":1,"provider":{}}\n{"type":"chunk","turn":1,"chunk":{}}\n',
    );
    expect(() => replayProvider(broken)).toThrow(
      `${broken}:2 is not a valid cassette line: turn 1 has no request before it.`,
    );
  });
});
