// End-to-end test of `agentloop run --provider google`: the built command, spawned against a local server
// on 127.0.0.1 that answers as the Gemini API streams. It imports nothing from the sources.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENTLOOP_BIN, assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';

let workspace: CliWorkspace | undefined;
let server: Server | undefined;

interface GeminiRequest {
  url: string;
  apiKey: string | undefined;
  body: { contents: unknown[]; toolConfig?: unknown };
}

/** A server whose every answer is one streamed Gemini response calling `converse`. */
async function startGeminiServer(message: string): Promise<{ url: string; requests: GeminiRequest[] }> {
  const requests: GeminiRequest[] = [];
  server = createServer(async (request: IncomingMessage, response) => {
    let text = '';
    for await (const piece of request) text += piece;
    requests.push({
      url: request.url ?? '',
      apiKey: request.headers['x-goog-api-key'] as string | undefined,
      body: JSON.parse(text),
    });
    const answer = {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name: 'converse', args: { message } } }] },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 5 },
    };
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(`data: ${JSON.stringify(answer)}\n\n`);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function agentloop(
  args: string[],
  environment: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const at = workspace as CliWorkspace;
  const child = spawn(process.execPath, [AGENTLOOP_BIN, ...args], {
    cwd: at.project,
    env: at.environment(environment),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

describe('agentloop run with Google Gemini', () => {
  beforeAll(() => assertBuilt());

  afterEach(async () => {
    workspace?.remove();
    workspace = undefined;
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('runs on --provider google with GEMINI_API_KEY, the model from GEMINI_MODEL', async () => {
    workspace = new CliWorkspace();
    const gemini = await startGeminiServer('Hello from Gemini.');
    const run = await agentloop(['run', '--provider', 'google', '--base-url', gemini.url, 'say hello'], {
      GEMINI_API_KEY: 'gm-test',
      GEMINI_MODEL: 'gemini-2.5-pro',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('Hello from Gemini.\n');
    expect(gemini.requests).toHaveLength(1);
    expect(gemini.requests[0]?.url).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    expect(gemini.requests[0]?.apiKey).toBe('gm-test');
    expect(gemini.requests[0]?.body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
  }, 30_000);

  it('picks Gemini from GOOGLE_API_KEY alone, and says what to set when --provider google has no key', async () => {
    workspace = new CliWorkspace();
    const gemini = await startGeminiServer('Picked by the environment.');
    const run = await agentloop(['run', 'hi'], { GOOGLE_API_KEY: 'gg-test', GOOGLE_GEMINI_BASE_URL: gemini.url });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('Picked by the environment.\n');
    expect(gemini.requests[0]?.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(gemini.requests[0]?.apiKey).toBe('gg-test');
    const keyless = await agentloop(['run', '--provider', 'google', 'hi'], {});
    expect(keyless.status).toBe(2);
    expect(keyless.stderr).toBe(
      '✗ The google provider needs an API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or api_key in [providers.google] of the configuration.\n',
    );
  }, 30_000);
});
