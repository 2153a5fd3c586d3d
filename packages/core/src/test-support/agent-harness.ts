import type { Tool } from '@agentloop/tools';
import { defineTool } from '@agentloop/tools';
import { z } from 'zod';
import type { AgentOptions } from '../agent/agent-options.js';
import { DefaultAgent } from '../agent/default-agent.js';
import type { AgentEvent } from '../events/index.js';
import type { ScriptedProviderOptions, ScriptStep } from '../testing/index.js';
import { ScriptedProvider } from '../testing/index.js';

/** An agent on a ScriptedProvider that records every event it emits. */
export function scriptedAgent(
  steps: ScriptStep[],
  options: AgentOptions = {},
  providerOptions: ScriptedProviderOptions = {},
) {
  const provider = new ScriptedProvider(steps, providerOptions);
  let clock = 0;
  const agent = new DefaultAgent(provider, {
    now: () => clock++,
    createId: () => 'run-1',
    sessionId: 'session-1',
    workspace: '/work',
    ...options,
  });
  const events: AgentEvent[] = [];
  // Kept apart, so that tests of what events say compare payloads; the ids have tests of their own.
  const eventIds: string[] = [];
  agent.onAny(({ eventId, ...event }) => {
    events.push(event as AgentEvent);
    eventIds.push(eventId ?? '');
  });
  return { agent, provider, events, eventIds, types: () => events.map((event) => event.type) };
}

/** A tool that echoes its `text` argument. */
export const echoTool: Tool<{ text: string }, string> = defineTool({
  name: 'echo',
  description: 'Echoes the text back.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

/** A script step that completes the task with this result. */
export function complete(result: string) {
  return { toolCalls: [{ name: 'task_completion', arguments: { result } }] };
}
