import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpServers } from '../mcp-servers.js';
import { everythingServer, isAlive } from '../test-support/servers.js';

// A DefaultAgent with the reference "everything" server's tools: the server's elicitation and sampling
// requests reach the agent's events and provider.
let mcp: McpServers | undefined;
afterEach(async () => {
  const pids = mcp?.status().flatMap((status) => (status.pid ? [status.pid] : [])) ?? [];
  await mcp?.close();
  mcp = undefined;
  expect(pids.filter(isAlive)).toEqual([]);
});

async function agentCalling(tool: string, args: Record<string, unknown>, between: { text: string }[] = []) {
  mcp = await connectMcpServers({ everything: everythingServer() });
  const provider = new ScriptedProvider([
    { toolCalls: [{ name: `everything__${tool}`, arguments: args }] },
    ...between,
    { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
  ]);
  const agent = new DefaultAgent(provider, {});
  mcp.attach(agent.tools);
  const results: string[] = [];
  agent.on('tool-result', (event) => {
    if (event.name !== 'task_completion') results.push(event.content);
  });
  agent.on('tool-result-error', (event) => results.push(`error: ${event.content}`));
  return { agent, provider, results };
}

describe('an agent with the everything server', () => {
  it('shows the server’s elicitation as elicitation-requested and sends the answer, defaults filled in', async () => {
    const { agent, results } = await agentCalling('trigger-elicitation-request', {});
    const asked: { server?: string; message: string; mode: string; required?: unknown }[] = [];
    agent.on('elicitation-requested', (event) => {
      asked.push({ server: event.server, message: event.message, mode: event.mode, required: event.schema?.required });
      agent.answerElicitation(event.requestId, { action: 'accept', content: { name: 'Grace Hopper' } });
    });
    expect((await agent.run('go')).exit).toBe('task_completion');
    expect(asked).toEqual([
      {
        server: 'everything',
        message: 'Please provide inputs for the following fields:',
        mode: 'form',
        required: ['name'],
      },
    ]);
    expect(results[0]).toContain('- Name: Grace Hopper');
    // The fields left empty took the form's defaults.
    expect(results[0]).toContain('- Favorite Integer: 42');
    expect(results[0]).toContain('"firstLine": "It was a dark and stormy night."');
  });

  it('declines the elicitation when nobody listens (a run with nobody to ask)', async () => {
    const { agent, results } = await agentCalling('trigger-elicitation-request', {});
    await agent.run('go');
    expect(results[0]).toContain('User declined to provide the requested information');
  });

  it('answers the server’s sampling request with the agent’s model once approved', async () => {
    const { agent, provider, results } = await agentCalling(
      'trigger-sampling-request',
      { prompt: 'a haiku about tests', maxTokens: 30 },
      [{ text: 'Green checks in a row' }],
    );
    agent.setApproval({ mode: 'ask', rules: [{ tool: 'everything__*', action: 'allow' }] });
    const approvals: (string | undefined)[] = [];
    agent.on('approval-requested', (event) => {
      approvals.push(event.kind);
      agent.answerApproval(event.requestId, { decision: 'allow-once' });
    });
    await agent.run('go');
    expect(approvals).toEqual(['sampling']);
    expect(provider.requests[1]?.systemPrompt).toBe('You are a helpful test server.');
    expect(provider.requests[1]?.settings?.maxTokens).toBe(30);
    expect(results[0]).toContain('"text": "Green checks in a row"');
    expect(results[0]).toContain('"model": "scripted-model"');
  });
});
