import { afterEach, describe, expect, it } from 'vitest';
import { allEvents, body, runInput, TEST_TOKEN, type TestServer, testServer } from '../test-support/test-server.js';
import { createAgentHandler } from './create-agent-handler.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const finish = (result: string) => ({ toolCalls: [{ name: 'task_completion', arguments: { result } }] });

describe('createAgentHandler security', () => {
  it('refuses a request without a token, or with a wrong one, with a 401 that says what to send', async () => {
    server = testServer({ scripts: {} });
    const none = await server.handler.fetch(new Request('http://127.0.0.1/api/sessions'));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await body(none)).toEqual({
      error: {
        code: 'unauthorized',
        message: 'The request carries no token: send the header Authorization: Bearer <token>.',
      },
    });
    const wrong = await server.request('/api/sessions', { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect((await body(wrong)).error.message).toBe(
      'The bearer token is wrong: use the token the server printed when it started.',
    );
    expect(server.handler.runs.runCount).toBe(0);
  });

  it('hands maxBufferedEvents to its run manager, which checks it', () => {
    const options = { createAgent: () => Promise.reject(new Error('unused')), sessions: {} as never };
    expect(() => createAgentHandler({ ...options, maxBufferedEvents: 1.5 })).toThrow(
      'maxBufferedEvents must be a whole number of events, 0 or more; got 1.5.',
    );
    expect(createAgentHandler({ ...options, maxBufferedEvents: 10 }).runs.runCount).toBe(0);
  });

  it('makes a random token per handler unless one is given', () => {
    const options = { createAgent: () => Promise.reject(new Error('unused')), sessions: {} as never };
    const first = createAgentHandler(options).token;
    const second = createAgentHandler(options).token;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(createAgentHandler({ ...options, token: TEST_TOKEN }).token).toBe(TEST_TOKEN);
    expect(() => createAgentHandler({ ...options, token: 'short' })).toThrow(
      'The token option is too short: give at least 16 characters, or leave it out for a random one.',
    );
  });

  it('refuses a foreign origin with a 403, and lets a listed one through with CORS headers', async () => {
    server = testServer({ scripts: {}, allowedOrigins: ['https://app.example.com'] });
    const foreign = await server.request('/api/sessions', { headers: { origin: 'https://evil.example.com' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(await body(foreign)).toEqual({
      error: {
        code: 'origin_not_allowed',
        message: "Origin https://evil.example.com may not call this API: add it to the server's allowed origins.",
      },
    });
    const listed = await server.request('/api/sessions', { headers: { origin: 'https://app.example.com' } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const preflight = await server.handler.fetch(
      new Request('http://127.0.0.1/api/agui', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type');
    const own = await server.request('/api/sessions', { headers: { origin: 'http://127.0.0.1' } });
    expect(own.status).toBe(200);
  });

  it('keeps CORS closed when no origin is listed', async () => {
    server = testServer({ scripts: {} });
    const preflight = await server.handler.fetch(
      new Request('http://127.0.0.1/api/agui', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      }),
    );
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a body over maxBodyBytes with a 413, with or without a Content-Length', async () => {
    server = testServer({ scripts: { s1: [finish('x')] }, maxBodyBytes: 1000 });
    const big = runInput('s1', 'x'.repeat(2000));
    const declared = await server.request('/api/agui', {
      json: big,
      headers: { 'content-length': String(JSON.stringify(big).length) },
    });
    expect(declared.status).toBe(413);
    expect(await body(declared)).toEqual({
      error: { code: 'body_too_large', message: 'The request body is larger than 1000 bytes: send less.' },
    });
    const streamed = await server.handler.fetch(
      new Request('http://127.0.0.1/api/agui', {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: new Blob([JSON.stringify(big)]).stream(),
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(server.handler.runs.runCount).toBe(0);
  });

  it('answers a failure with a 500 that holds no stack or message, and reports it to onError', async () => {
    const reported: unknown[] = [];
    server = testServer({ scripts: {}, onError: (error) => reported.push(error) });
    const failing = server.store;
    failing.list = () => Promise.reject(new Error('disk on fire at /secret/path'));
    const response = await server.request('/api/sessions');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'internal_error', message: 'The server failed to answer; its log says why.' },
    });
    expect(text).not.toContain('secret');
    expect(reported).toEqual([new Error('disk on fire at /secret/path')]);
  });

  it('answers 503 when createAgent fails, without its message, which goes to onError', async () => {
    const reported: unknown[] = [];
    server = testServer({ scripts: {}, onError: (error) => reported.push(error) });
    const response = await server.request('/api/agui', { json: runInput('nobody', 'hi') });
    expect(response.status).toBe(503);
    expect(await body(response)).toEqual({
      error: { code: 'agent_unavailable', message: 'The agent for session nobody could not be created.' },
    });
    expect(server.handler.runs.runCount).toBe(0);
    expect(reported).toEqual([new Error('no script for session nobody')]);
  });

  it('serves every route under basePath, and nothing outside it', async () => {
    server = testServer({ scripts: { s1: [finish('done')] }, basePath: '/agent/' });
    expect((await server.request('/api/sessions')).status).toBe(404);
    const events = await allEvents(await server.request('/agent/api/agui', { json: runInput('s1', 'hi') }));
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect((await body(await server.request('/agent/api/sessions'))).sessions).toMatchObject([{ id: 's1' }]);
  });

  it('refuses a basePath that is not a path', () => {
    expect(() =>
      createAgentHandler({
        createAgent: () => Promise.reject(new Error('unused')),
        sessions: {} as never,
        basePath: 'agent',
      }),
    ).toThrow('basePath "agent" is not a path: give one like "/agent".');
  });
});
