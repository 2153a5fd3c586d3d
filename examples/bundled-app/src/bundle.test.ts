import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleApp } from './test-support/bundle-app.js';

// The app is bundled from the packages' builds, as an app installing them gets them.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const built = ['core', 'tools', 'providers'].every((name) =>
  existsSync(path.join(root, 'packages', name, 'dist', 'bundle')),
);

/** One Chat Completions answer, streamed as OpenAI does: text, or one tool call, then usage. */
function chatStream(answer: { text?: string; toolCall?: { name: string; arguments: string } }): string {
  const chunk = (delta: unknown, finishReason: string | null = null) => ({
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_727_346_178,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: answer.text ?? null })];
  if (answer.toolCall) {
    const { name, arguments: input } = answer.toolCall;
    chunks.push(
      chunk({ tool_calls: [{ index: 0, id: `call_${name}`, type: 'function', function: { name, arguments: '' } }] }),
    );
    chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: input } }] }));
  }
  chunks.push(chunk({}, answer.toolCall ? 'tool_calls' : 'stop'));
  chunks.push({ ...chunk({}), choices: [], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } });
  return `${chunks.map((data) => `data: ${JSON.stringify(data)}\n\n`).join('')}data: [DONE]\n\n`;
}

const script = [
  // native: a call of the JSON Schema tool, then the exit
  chatStream({ toolCall: { name: 'get_time', arguments: '{"zone":"UTC"}' } }),
  // a workspace tool: the deny-list and the pattern (picomatch), the .gitignore rules (ignore)
  chatStream({ toolCall: { name: 'list_files', arguments: '{"pattern":"*.mjs"}' } }),
  chatStream({ toolCall: { name: 'task_completion', arguments: '{"result":"It is 12:00 UTC."}' } }),
  // XML: a block in XML elements (fast-xml-parser), then one in sloppy JSON (jsonrepair)
  chatStream({
    text: 'Checking.\n<tool><tool_name>get_time</tool_name><arguments><zone>UTC</zone></arguments></tool>',
  }),
  chatStream({
    text: "<tool>\n{'server_name': 'local', 'tool_name': 'task_completion', 'arguments': {'result': 'XML: 12:00 UTC',},}\n</tool>",
  }),
];

describe('an app bundled with esbuild', () => {
  let server: Server;
  let baseURL: string;
  let folder: string;
  const requests: string[] = [];

  beforeAll(async () => {
    if (!built) throw new Error('packages/{core,tools,providers}/dist/bundle is missing: run `npm run build` first.');
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (part: Buffer) => {
        body += part.toString('utf8');
      });
      request.on('end', () => {
        const answer = script[requests.length];
        requests.push(body);
        if (answer === undefined) {
          response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no answer left"}}');
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    // A folder with no node_modules in it or above it: the bundle must hold everything it loads.
    folder = await mkdtemp(path.join(tmpdir(), 'agentloop-bundle-'));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(folder, { recursive: true, force: true });
  });

  it('runs from one file without node_modules: a tool, tracing, and the XML protocol’s parsers', async () => {
    const bundle = path.join(folder, 'app.mjs');
    await bundleApp(fileURLToPath(new URL('./main.ts', import.meta.url)), bundle);
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [bundle],
        { cwd: folder, env: { PATH: process.env.PATH, OPENAI_BASE_URL: baseURL, OPENAI_MODEL: 'gpt-4o' } },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    const [native, xml] = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));

    expect(native).toEqual({
      toolProtocol: 'native',
      exit: 'task_completion',
      payload: { result: 'It is 12:00 UTC.' },
      calls: [
        { name: 'get_time', arguments: { zone: 'UTC' } },
        { name: 'list_files', arguments: { pattern: '*.mjs' } },
        { name: 'task_completion', arguments: { result: 'It is 12:00 UTC.' } },
      ],
      spans: [
        'invoke_agent',
        'chat gpt-4o',
        'execute_tool get_time',
        'chat gpt-4o',
        'execute_tool list_files',
        'chat gpt-4o',
        'execute_tool task_completion',
      ],
    });
    expect(xml).toMatchObject({
      toolProtocol: 'xml',
      exit: 'task_completion',
      payload: { result: 'XML: 12:00 UTC' },
      calls: [
        { name: 'get_time', arguments: { zone: 'UTC' } },
        { name: 'task_completion', arguments: { result: 'XML: 12:00 UTC' } },
      ],
    });
    // The workspace tool listed the bundle, and the element-form call ran: their results went to the model.
    expect(requests).toHaveLength(5);
    expect(JSON.parse(requests[2] ?? '{}').messages.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('app.mjs'),
    });
    expect(requests[4]).toContain('12:00 UTC');
  });
});
