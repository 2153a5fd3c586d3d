import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProviderFactory } from '../provider/index.js';
import { MemoryOutput } from '../test-support/index.js';
import { createRedactor } from '../verbose/index.js';
import type { ConsoleGuard } from './console-guard.js';
import { installConsoleGuard } from './console-guard.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

let guard: ConsoleGuard | undefined;
let server: Server | undefined;

afterEach(async () => {
  guard?.restore();
  guard = undefined;
  vi.restoreAllMocks();
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  }
});

function guarded(secrets: string[] = []) {
  const errorOutput = new MemoryOutput();
  guard = installConsoleGuard({ errorOutput, redact: createRedactor(secrets) });
  return errorOutput;
}

describe('installConsoleGuard', () => {
  it('strips a clipboard write, a screen clear, a C1 control and a bidi override from console.error', () => {
    const errorOutput = guarded();
    console.error('Could not parse message into JSON:', 'a\x1b]52;c;ZXZpbA==\x07b\x1b[2Jc\x9b2Jd\u202ee\x85f');
    expect(errorOutput.text).toBe('Could not parse message into JSON: abcdef\n');
  });

  it('guards every printing method, and sends them all to stderr, log and info included', () => {
    const errorOutput = guarded();
    console.log('log \x1b[31mred');
    console.info('info %s', 'x\x1b]0;title\x07');
    console.debug('debug', { nested: 'y\x1b[2J' });
    console.warn('warn\u202e');
    console.dir({ text: 'z\x9b2J' });
    console.trace('trace\x1b[H');
    const lines = errorOutput.text.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'log red',
      'info x',
      "debug { nested: 'y\\x1B[2J' }",
      'warn',
      "{ text: 'z\\x9B2J' }",
    ]);
    expect(lines[5]).toBe('Trace: trace');
    expect(lines[6]).toMatch(/^ {4}at /);
    expect(errorOutput.text).not.toMatch(CONTROLS);
  });

  it('guards dirxml, assert and the methods that print through log (table, group, count)', () => {
    const errorOutput = guarded();
    console.dirxml('dirxml\x1b[2J');
    console.assert(false, 'assert\x1b]52;c;eA==\x07');
    console.assert(true, 'never shown');
    console.count('count\x1b[H');
    expect(errorOutput.text.split('\n').slice(0, 3)).toEqual(['dirxml', 'Assertion failed: assert', 'count: 1']);
    expect(errorOutput.text).not.toMatch(CONTROLS);
  });

  it('strips before it redacts, so a control character inside a key does not hide it', () => {
    const errorOutput = guarded(['sk-session-secret-0123']);
    console.error('key sk-session-\x1b[0msecret-0123 and sk-ant-api03-\x9babcdefghijklmnop');
    expect(errorOutput.text).toBe('key [REDACTED] and [REDACTED]\n');
  });

  it('redacts with the redactor it is given later', () => {
    const errorOutput = guarded();
    guard?.redactWith(createRedactor(['configured-key-1234']));
    console.error('configured-key-1234');
    expect(errorOutput.text).toBe('[REDACTED]\n');
  });

  it('puts the console back when restored', () => {
    const original = console.error;
    guarded();
    expect(console.error).not.toBe(original);
    guard?.restore();
    expect(console.error).toBe(original);
  });

  it("keeps what the OpenAI SDK prints for a server's thread.* event off the terminal raw", async () => {
    // The SDK prints an unparsable `thread.*` event with console.error, whatever its logger option says.
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: thread.run\ndata: \x1b]52;c;ZXZpbA==\x07\x1b[2J\x9b2J\u202eboom\n\n');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const raw: string[] = [];
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        raw.push(String(chunk));
        return true;
      });
    // The provider would retry the failed stream after a backoff: the first line printed cancels it.
    const cancel = new AbortController();
    const errorOutput = guarded();
    const write = errorOutput.write.bind(errorOutput);
    errorOutput.write = (text) => {
      cancel.abort();
      return write(text);
    };
    const provider = await createProviderFactory()({ name: 'local', type: 'openai', model: 'm', baseURL });
    const request = { systemPrompt: '', messages: [], tools: [], toolChoice: 'auto' as const, signal: cancel.signal };
    await expect(async () => {
      for await (const _chunk of provider.stream(request));
    }).rejects.toThrow();
    expect(errorOutput.text.split('\n')[0]).toBe('Could not parse message into JSON: boom');
    expect(errorOutput.text).not.toMatch(CONTROLS);
    expect(raw.join('')).not.toMatch(CONTROLS);
  });
});
