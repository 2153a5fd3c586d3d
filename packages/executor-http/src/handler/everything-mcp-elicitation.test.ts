// The whole path with a real MCP server: the reference "everything" server (from npm, over stdio) asks
// for a form in the middle of a tool call; the handler shows it (AG-UI, the session's snapshot), the
// answer comes through POST /api/sessions/:id/elicitations/:requestId, and the server's tool result that
// the model gets carries the answered values and the form's defaults.
import { createRequire } from 'node:module';
import { connectMcpServers, type McpServers } from '@agentloop/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { body, runInput, sseEvents, type TestServer, testServer } from '../test-support/test-server.js';

const require = createRequire(import.meta.url);

let mcp: McpServers | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  const pids = mcp?.status().flatMap((status) => (status.pid ? [status.pid] : [])) ?? [];
  await server?.close();
  await mcp?.close();
  server = undefined;
  mcp = undefined;
  // The server's process ended with the test: none is left behind.
  expect(pids.filter(isAlive)).toEqual([]);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const finish = { toolCalls: [{ name: 'task_completion', arguments: { result: 'Form sent.' } }] };

/** Reads the AG-UI stream up to the first CUSTOM event named `name`. */
async function until(events: AsyncGenerator<Record<string, unknown>>, name: string) {
  for (;;) {
    const next = await events.next();
    if (next.done) throw new Error(`the stream ended before ${name}`);
    if (next.value.type === 'CUSTOM' && next.value.name === name) return next.value.value as Record<string, any>;
  }
}

describe('an MCP server’s elicitation over HTTP', () => {
  it('reaches the page as a form, and the answer sent through the route reaches the server', async () => {
    mcp = await connectMcpServers({
      everything: {
        command: process.execPath,
        args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
      },
    });
    const tools = mcp.tools;
    server = testServer({
      scripts: {
        s1: [{ toolCalls: [{ id: 'c1', name: 'everything__trigger-elicitation-request', arguments: {} }] }, finish],
      },
      tools: () => [...tools],
    });
    const events = sseEvents(await server.request('/api/agui', { json: runInput('s1', 'Fill in the form') }));
    // The test server's policy asks before a tool that may write runs, as a server's tool is taken to.
    const approval = await until(events, 'agentloop.approval-requested');
    await server.request(`/api/sessions/s1/approvals/${approval.requestId}`, { json: { decision: 'allow-once' } });
    const asked = await until(events, 'agentloop.elicitation-requested');
    expect(asked).toMatchObject({
      toolCallId: 'c1',
      toolName: 'everything__trigger-elicitation-request',
      server: 'everything',
      message: 'Please provide inputs for the following fields:',
      mode: 'form',
      schema: { type: 'object', required: ['name'] },
    });
    const requestId = asked.requestId as string;
    const session = await body(await server.request('/api/sessions/s1'));
    expect(session.run.elicitations).toMatchObject([{ requestId, server: 'everything', mode: 'form' }]);

    // The form's one required field left empty: a 400 naming it, and the request still waits.
    const refused = await server.request(`/api/sessions/s1/elicitations/${requestId}`, {
      json: { action: 'accept', content: { email: 'ada@example.com' } },
    });
    expect(refused.status).toBe(400);
    expect((await body(refused)).error.message).toContain('required field "name" empty');

    const answer = await server.request(`/api/sessions/s1/elicitations/${requestId}`, {
      json: { action: 'accept', content: { name: 'Ada Lovelace', email: 'ada@example.com' } },
    });
    expect(await body(answer)).toEqual({ answered: true, requestId, action: 'accept' });
    expect(await until(events, 'agentloop.elicitation-resolved')).toEqual({ requestId, action: 'accept' });
    for await (const _ of events) {
      // The rest of the run.
    }
    // What the model got back from the server's tool: the answered values and the form's defaults.
    const toolMessage = server.providers.get('s1')?.lastMessage(1);
    const result = JSON.stringify(toolMessage);
    expect(result).toContain('- Name: Ada Lovelace');
    expect(result).toContain('- Email: ada@example.com');
    expect(result).toContain('- Favorite Integer: 42');
    expect(result).toContain('It was a dark and stormy night.');
    expect(server.handler.runs.runCount).toBe(0);
    expect(server.agentListeners()).toBe(0);
  }, 60_000);
});
