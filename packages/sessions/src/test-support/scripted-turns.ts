import type { AgentOptions, Tool } from '@agentloop/core';
import { DefaultAgent, defineTool } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { z } from 'zod';

/** A tool that looks a key up: the ordinary tool call of the scripted turns. */
export const lookupTool: Tool = defineTool({
  name: 'lookup',
  description: 'Looks a key up.',
  parameters: z.object({ key: z.string() }),
  execute: async ({ key }) => `value of ${key}`,
});

/**
 * The model's side of turn `turn`: a lookup, then `task_completion` (or, with `ask`, `ask_question`). A
 * turn adds five messages: the input, the call, its result, the exit call, its result.
 */
export function scriptedTurn(turn: number, options: { ask?: boolean } = {}): ScriptStep[] {
  return [
    {
      toolCalls: [{ name: 'lookup', arguments: { key: `k${turn}` }, id: `lookup-${turn}` }],
      usage: { inputTokens: 100, outputTokens: 10 },
    },
    options.ask
      ? {
          toolCalls: [
            {
              name: 'ask_question',
              arguments: { question: `Go on after ${turn}?`, suggestions: ['yes', 'no'] },
              id: `exit-${turn}`,
            },
          ],
          usage: { inputTokens: 120, outputTokens: 12 },
        }
      : {
          toolCalls: [{ name: 'task_completion', arguments: { result: `done ${turn}` }, id: `exit-${turn}` }],
          usage: { inputTokens: 120, outputTokens: 12 },
        },
  ];
}

/** An agent over a ScriptedProvider, with the lookup tool. */
export function scriptedAgent(
  steps: ScriptStep[],
  options: AgentOptions = {},
): { agent: DefaultAgent; provider: ScriptedProvider } {
  const provider = new ScriptedProvider(steps);
  const agent = new DefaultAgent(provider, { tools: [lookupTool], ...options });
  return { agent, provider };
}
