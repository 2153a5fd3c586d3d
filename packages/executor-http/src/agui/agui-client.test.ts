import { HttpAgent } from '@ag-ui/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type ListeningServer, listen } from '../test-support/listen.js';
import { TEST_TOKEN, type TestServer, testServer } from '../test-support/test-server.js';

let server: TestServer | undefined;
let listening: ListeningServer | undefined;
afterEach(async () => {
  await listening?.close();
  await server?.close();
  server = undefined;
  listening = undefined;
});

describe('a real AG-UI client (HttpAgent) over a Node server', () => {
  it('runs a tool loop with an approval answered while the run streams', async () => {
    server = testServer({
      scripts: {
        t1: [
          {
            text: 'Let me fix it.',
            toolCalls: [{ id: 'c1', name: 'edit_file', arguments: { path: 'a.ts', old_text: '-', new_text: '+' } }],
          },
          { toolCalls: [{ name: 'task_completion', arguments: { result: 'Fixed the sign.' } }] },
        ],
      },
    });
    listening = await listen(server.handler);
    const agent = new HttpAgent({
      url: `${listening.url}/api/agui`,
      headers: { Authorization: `Bearer ${TEST_TOKEN}` },
      threadId: 't1',
    });
    agent.addMessage({ id: 'u1', role: 'user', content: 'Fix the sign in a.ts' });
    const seen: string[] = [];
    const result = await agent.runAgent(
      { runId: 'r1' },
      {
        onEvent: ({ event }) => {
          seen.push(event.type);
        },
        onCustomEvent: async ({ event }) => {
          if (event.name !== 'agentloop.approval-requested') return;
          const answer = await fetch(`${listening?.url}/api/sessions/t1/approvals/${event.value.requestId}`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ decision: 'allow-once' }),
          });
          expect(answer.status).toBe(200);
        },
      },
    );
    expect(seen[0]).toBe('RUN_STARTED');
    expect(seen).toContain('CUSTOM');
    expect(seen.at(-1)).toBe('RUN_FINISHED');
    expect(result.result).toEqual({ exit: 'task_completion', result: 'Fixed the sign.' });
    expect(server.written).toEqual(['a.ts: +']);
    expect(agent.messages.map((message) => [message.role, 'content' in message ? message.content : undefined])).toEqual(
      [
        ['user', 'Fix the sign in a.ts'],
        ['assistant', 'Let me fix it.'],
        ['tool', 'edited a.ts'],
        ['assistant', 'Fixed the sign.'],
      ],
    );
    expect(server.handler.runs.runCount).toBe(0);
  }, 30_000);
});
