import { ScriptedProvider } from '@agentloop/core/testing';
import { expect, it } from 'vitest';
import { runMinimalAgent, script } from './main.js';

it('answers a greeting through converse and prints the message', async () => {
  const lines: string[] = [];
  const provider = new ScriptedProvider(script);
  const result = await runMinimalAgent(provider, 'Hi there!', (line) => lines.push(line));
  expect(result.exit).toBe('converse');
  expect(lines).toEqual([
    '> Hi there!',
    '(thinking aloud: The user greets me; a friendly reply is all that is needed.)',
    'Hello! I am a minimal agentloop agent. Ask me anything.',
  ]);
  expect(provider.requests[0]?.tools.map((tool) => tool.name)).toEqual(['task_completion', 'ask_question', 'converse']);
  provider.assertDone();
});
