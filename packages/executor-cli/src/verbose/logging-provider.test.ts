import type { ModelChunk, ModelRequest } from '@agentloop/core';
import { DefaultAgent, ProviderError } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/index.js';
import { LoggingProvider } from './logging-provider.js';
import { createRedactor } from './redact.js';
import { VerboseLog } from './verbose-log.js';

const steps: ScriptStep[] = [
  {
    thinking: 'hmm',
    text: 'Reading sk-ant-api03-secretsecretsecret now.',
    toolCalls: [{ name: 'task_completion', arguments: { result: 'ok' } }],
    usage: { inputTokens: 1200, outputTokens: 30 },
  },
];

function setup(enabled: boolean, script: ScriptStep[] = steps) {
  const stderr = new MemoryOutput();
  const log = new VerboseLog(stderr, createStyle(false), createRedactor(['super-secret-key-1']), enabled);
  let clock = 0;
  const provider = new LoggingProvider(new ScriptedProvider(script), log, () => (clock += 250));
  return { stderr, log, provider };
}

async function collect(provider: LoggingProvider, request: Partial<ModelRequest> = {}): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  const full: ModelRequest = {
    systemPrompt: 'system text',
    messages: [],
    tools: [],
    toolChoice: 'auto',
    signal: new AbortController().signal,
    ...request,
  };
  for await (const batch of provider.stream(full)) chunks.push(...batch);
  return chunks;
}

describe('LoggingProvider', () => {
  it('passes every chunk through unchanged', async () => {
    const direct: ModelChunk[] = [];
    for await (const batch of new ScriptedProvider(steps).stream({
      systemPrompt: '',
      messages: [],
      tools: [],
      toolChoice: 'auto',
      signal: new AbortController().signal,
    }))
      direct.push(...batch);
    expect(await collect(setup(true).provider)).toEqual(direct);
  });

  it('reports the wrapped provider id and capabilities', () => {
    const { provider } = setup(true);
    expect(provider.id).toBe('scripted');
    expect(provider.capabilities).toBe(provider.inner.capabilities);
  });

  it('logs the request and the response, redacting keys', async () => {
    const { provider, stderr } = setup(true);
    await collect(provider, {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'my key is super-secret-key-1' }] }],
    });
    expect(stderr.text.split('\n')).toEqual([
      '→ model request #1 (scripted:scripted-model): 1 messages, tool_choice auto, 0 tools',
      '  system: "system text"',
      '  [1] user: "my key is [REDACTED]"',
      '← model request #1 (scripted:scripted-model) in 250 ms: finish tool-calls, tokens 1,200 in / 30 out',
      '  thinking: "hmm"',
      '  text: "Reading [REDACTED] now."',
      '  tool call: task_completion {"result":"ok"}',
      '',
    ]);
  });

  it('cuts long payloads with a note of how much was cut', async () => {
    const { provider, stderr } = setup(true);
    await collect(provider, { systemPrompt: 'x'.repeat(1000) });
    expect(stderr.text).toContain(`  system: "${'x'.repeat(239)}…" (+761 chars)`);
  });

  it('logs a failure and rethrows the same error', async () => {
    const error = new ProviderError('bad key', { code: 'authentication', provider: 'scripted', statusCode: 401 });
    const { provider, stderr } = setup(true, [{ error }]);
    await expect(collect(provider)).rejects.toBe(error);
    expect(stderr.text).toContain(
      '← model request #1 (scripted:scripted-model) failed after 250 ms: authentication: bad key',
    );
  });

  it('names the provider by the label it is given, in place of the id and model', async () => {
    const stderr = new MemoryOutput();
    const log = new VerboseLog(stderr, createStyle(false), createRedactor([]), true);
    const provider = new LoggingProvider(new ScriptedProvider(steps), log, {
      label: 'openai-responses:gpt-5, Responses API',
      now: () => 0,
    });
    await collect(provider);
    expect(stderr.text.split('\n').filter((line) => /^[→←]/.test(line))).toEqual([
      '→ model request #1 (openai-responses:gpt-5, Responses API): 0 messages, tool_choice auto, 0 tools',
      '← model request #1 (openai-responses:gpt-5, Responses API) in 0 ms: finish tool-calls, tokens 1,200 in / 30 out',
    ]);
  });

  it('hands on the batches as they came while logging, and the wrapped stream itself while the log is off', async () => {
    const request: ModelRequest = {
      systemPrompt: '',
      messages: [],
      tools: [],
      toolChoice: 'auto',
      signal: new AbortController().signal,
    };
    const batched = new ScriptedProvider(steps, { batchSize: 2 });
    const direct: number[] = [];
    for await (const batch of batched.stream(request)) direct.push(batch.length);
    const sizes: number[] = [];
    const on = new LoggingProvider(new ScriptedProvider(steps, { batchSize: 2 }), setup(true).log);
    for await (const batch of on.stream(request)) sizes.push(batch.length);
    expect(sizes).toEqual(direct);
    expect(sizes.some((size) => size > 1)).toBe(true);
    const stream = new ScriptedProvider(steps).stream(request);
    const inner = {
      specificationVersion: 'v2' as const,
      id: 'inner',
      capabilities: batched.capabilities,
      stream: () => stream,
    };
    expect(new LoggingProvider(inner, setup(false).log).stream(request)).toBe(stream);
  });

  it('writes nothing while the log is off', async () => {
    const { provider, stderr } = setup(false);
    await collect(provider);
    expect(stderr.text).toBe('');
  });

  it('leaves an agent run exactly as it is without it', async () => {
    const run = async (wrap: boolean) => {
      const scripted = new ScriptedProvider(steps);
      const provider = wrap ? new LoggingProvider(scripted, setup(true).log) : scripted;
      let clock = 0;
      const agent = new DefaultAgent(provider, { now: () => clock++, createId: () => 'run', sessionId: 's' });
      const result = await agent.run('hello');
      return { result, requests: scripted.requests };
    };
    expect(await run(true)).toEqual(await run(false));
  });
});
