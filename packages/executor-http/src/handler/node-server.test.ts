import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ListeningServer, listen } from '../test-support/listen.js';
import { allEvents, runInput, TEST_TOKEN, type TestServer, testServer } from '../test-support/test-server.js';

// Waits on what the server does, not on a clock: the limit only stops a test that would hang, on a loaded machine.
const WAIT = { timeout: 20_000 };

let server: TestServer | undefined;
let listening: ListeningServer | undefined;
afterEach(async () => {
  await listening?.close();
  await server?.close();
  server = undefined;
  listening = undefined;
});

const post = (path: string, json: unknown) =>
  fetch(`${listening?.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(json),
  });

describe('the handler in a Node server', () => {
  it('streams 200 conversations at once to the end', async () => {
    server = testServer({
      scripts: {
        '*': [
          { text: 'Reading the file.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
          { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
        ],
      },
    });
    listening = await listen(server.handler);
    const conversations = Array.from({ length: 200 }, async (_, index) => {
      const response = await post('/api/agui', runInput(`c${index}`, `task ${index}`));
      const events = await allEvents(response);
      return events.at(-1);
    });
    const ends = await Promise.all(conversations);
    expect(
      ends.filter((end) => end?.type === 'RUN_FINISHED' && (end.result as { exit: string }).exit === 'task_completion'),
    ).toHaveLength(200);
    expect(server.handler.runs.runCount).toBe(0);
    expect(server.handler.runs.listenerCount).toBe(0);
    expect(server.agentListeners()).toBe(0);
  }, 120_000);

  it('leaves no run or listener behind when a client disconnects mid-stream', async () => {
    server = testServer({
      scripts: { s1: [{ text: 'Working on it.', hang: true }] },
    });
    listening = await listen(server.handler);
    const url = new URL('/api/agui', listening.url);
    const firstBytes = new Promise<() => void>((resolve, reject) => {
      const request = httpRequest(
        url,
        { method: 'POST', headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'Content-Type': 'application/json' } },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            if (chunk.toString().includes('RUN_STARTED')) resolve(() => request.destroy());
          });
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify(runInput('s1', 'a long task')));
    });
    const disconnect = await firstBytes;
    await vi.waitFor(() => expect(server?.agents).toHaveLength(1), WAIT);
    await vi.waitFor(() => expect(server?.agentListeners()).toBeGreaterThan(0), WAIT);
    expect(server.handler.runs.runCount).toBe(1);
    disconnect();
    await vi.waitFor(() => expect(server?.handler.runs.runCount).toBe(0), WAIT);
    expect(server.handler.runs.listenerCount).toBe(0);
    expect(server.agentListeners()).toBe(0);
    expect(server.agents[0]?.running).toBe(false);
  });
});
