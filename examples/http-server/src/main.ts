import { DefaultAgent } from '@agentloop/core';
import { createAgentHandler } from '@agentloop/executor-http';
import { AnthropicProvider } from '@agentloop/providers/anthropic';
import { JsonlSessionStore } from '@agentloop/sessions';
import { serve } from '@hono/node-server';

const provider = new AnthropicProvider({ model: 'claude-sonnet-4-6' });
const sessions = new JsonlSessionStore({ directory: '.agentloop/sessions' });

const handler = createAgentHandler({
  sessions,
  createAgent: ({ sessionId }) =>
    new DefaultAgent(provider, { session: { store: sessions, id: sessionId }, approval: 'ask' }),
});

serve({ fetch: handler.fetch, port: 4680, hostname: '127.0.0.1' });
console.log(`API token: ${handler.token}`);
