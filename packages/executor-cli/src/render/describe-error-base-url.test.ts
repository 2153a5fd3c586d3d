import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAIProvider } from '@agentloop/providers/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeError } from './describe-error.js';

// A server such as vLLM or llama.cpp: its API is under /v1, and every other path is a 404.
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url?.startsWith('/v1/')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end('data: [DONE]\n\n');
        return;
      }
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ detail: 'Not Found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failureOf(baseURL: string): Promise<unknown> {
  const provider = new OpenAIProvider({ model: 'qwen3', baseURL });
  const request = {
    systemPrompt: 'system',
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
    tools: [],
    toolChoice: 'auto' as const,
    signal: new AbortController().signal,
  };
  try {
    for await (const _chunk of provider.stream(request)) {
      // The server answers every request outside /v1 with a 404, so no chunk comes.
    }
  } catch (error) {
    return error;
  }
  throw new Error('expected the request to fail');
}

describe('describeError for a 404 from a server named by its base URL', () => {
  it('says to check the base URL path when the URL has none, and gives the /v1 one to try', async () => {
    const error = await failureOf(origin);
    const line = describeError(error, { providerName: 'openai', baseURL: origin, model: 'qwen3' });
    expect(line).toBe(
      `The server at ${origin} answered HTTP 404 (not found): the base URL has no path; check it, most often it ends in /v1 (${origin}/v1). The server said: Not Found.`,
    );
  });

  it('still names the model and the path to check when the URL has a path', async () => {
    const error = await failureOf(`${origin}/api`);
    const line = describeError(error, { providerName: 'openai', baseURL: `${origin}/api`, model: 'qwen3' });
    expect(line).toBe(
      `The server at ${origin}/api answered HTTP 404 (not found) for the model "qwen3": check the base URL's path (most often it ends in /v1) and that the server has the model. The server said: Not Found.`,
    );
  });
});
