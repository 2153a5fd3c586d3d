import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/index.js';
import { createRedactor, createSdkLogger, VerboseLog } from '../verbose/index.js';
import { createProviderFactory } from './create-provider.js';

// A server that answers every request with one malformed server-sent event, escape sequences in it.
let server: Server;
let baseURL: string;
beforeEach(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end('data: {"oops \x1b]52;c;ZXZpbA==\x07\x9b2J\u202e\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  vi.restoreAllMocks();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createProviderFactory', () => {
  it('builds a Google provider from its own module, with the key and model of the spec', async () => {
    const provider = await createProviderFactory()({
      name: 'google',
      type: 'google',
      model: 'gemini-2.5-pro',
      apiKey: 'gm',
      baseURL,
    });
    expect(provider.id).toBe('google');
    expect(provider.capabilities).toMatchObject({ modelId: 'gemini-2.5-pro', contextWindow: 1_048_576 });
  });

  it("routes the SDK's log through the sanitiser to stderr, never to console", async () => {
    const printed: unknown[][] = [];
    for (const level of ['error', 'warn', 'info', 'debug', 'log'] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args));
    // The provider would retry a malformed event after a backoff: the first line logged cancels the request.
    const cancel = new AbortController();
    const errorOutput = new MemoryOutput();
    const write = errorOutput.write.bind(errorOutput);
    errorOutput.write = (text) => {
      cancel.abort();
      return write(text);
    };
    const verboseLog = new VerboseLog(new MemoryOutput(), createStyle(false), createRedactor([]));
    const sdkLogger = createSdkLogger({ errorOutput, style: createStyle(false), verboseLog });
    const provider = await createProviderFactory({ sdkLogger })({
      name: 'local',
      type: 'openai',
      model: 'm',
      baseURL,
    });
    const request = { systemPrompt: '', messages: [], tools: [], toolChoice: 'auto' as const, signal: cancel.signal };
    await expect(async () => {
      for await (const _chunk of provider.stream(request));
    }).rejects.toThrow();
    expect(printed).toEqual([]);
    expect(errorOutput.text.split('\n')[0]).toBe('⚠ provider SDK: Could not parse message into JSON: {"oops');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
    expect(errorOutput.text).not.toMatch(/[\x1b\x80-\x9f\u202e]/);
  });

  it('gives every provider the [models] settings, for the model it is made for', async () => {
    const provider = await createProviderFactory()({
      name: 'local',
      type: 'openai',
      model: 'qwen3:8b',
      baseURL,
      models: { qwen3: { contextWindow: 40_960, editTool: 'apply_patch' }, other: { contextWindow: 1 } },
    });
    expect(provider.capabilities).toMatchObject({
      modelId: 'qwen3:8b',
      contextWindow: 40_960,
      editTool: 'apply_patch',
    });
  });
});
