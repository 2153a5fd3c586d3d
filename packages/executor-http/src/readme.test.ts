import { readFileSync } from 'node:fs';
import { DefaultAgent, defineTool } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// The README's first sample is examples/http-server/src/main.ts, which `npm run typecheck` compiles: this
// test keeps the two the same text, so the sample in the README compiles as written.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('../../../examples/http-server/src/main.ts', import.meta.url), 'utf8');

describe('the README', () => {
  it('shows as its first sample the example that CI compiles', () => {
    const firstSample = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(firstSample).toBe(example);
  });

  it('shows request ids in the form a run makes them: <kind>-<runId>-<n>', async () => {
    const agent = new DefaultAgent(
      new ScriptedProvider([
        { toolCalls: [{ id: 'call_1', name: 'touch', arguments: {} }] },
        { toolCalls: [{ name: 'converse', arguments: { message: 'done' } }] },
      ]),
    );
    agent.registerTool(
      defineTool({ name: 'touch', description: 'Touches.', parameters: z.object({}), execute: () => 'ok' }),
    );
    agent.setApproval({ decide: () => ({ action: 'ask', reason: 'touch changes things' }) });
    const made: string[] = [];
    agent.on('approval-requested', (event) => {
      made.push(event.requestId);
      agent.answerApproval(event.requestId, { decision: 'allow-once' });
    });
    await agent.run('go');
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    const form = new RegExp(`^(approval|elicitation)-${uuid}-[0-9]+$`);
    // The pattern is the one a real run's ids have, so the README's examples follow the code.
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(form);
    const shown = [...readme.matchAll(/"requestId": "([^"]*)"/g)].map((match) => match[1]);
    expect(shown.length).toBeGreaterThanOrEqual(3);
    expect(shown.filter((id) => !form.test(id ?? ''))).toEqual([]);
  });
});
