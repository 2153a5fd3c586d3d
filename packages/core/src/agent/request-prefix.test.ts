// The prefix of every request (system prompt and tool list) must be byte-identical on every call of a run
// and across runs with the same configuration: that is what lets a provider's prompt cache hit on it.
// Only the wrap-up call (`onMaxIterations: 'wrap-up'`) offers fewer tools; wrap-up.test.ts covers it.
import type { ToolProtocol } from '@agentloop/prompts';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedProvider, type ScriptStep } from '../testing/index.js';
import { DefaultAgent } from './default-agent.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo the text back.',
  parameters: z.object({ text: z.string().describe('The text to echo.') }),
  execute: ({ text }) => text,
});

function call(protocol: ToolProtocol, name: string, args: Record<string, unknown>): ScriptStep {
  if (protocol === 'native') return { toolCalls: [{ name, arguments: args }] };
  const block = JSON.stringify({ server_name: 'local', tool_name: name, arguments: args });
  return { text: `<thinking>Next step.</thinking>\n<tool>\n${block}\n</tool>` };
}

/** Five calls: two tool steps, a reply without a tool call (which gets a reminder), another step, the end. */
function script(protocol: ToolProtocol): ScriptStep[] {
  return [
    call(protocol, 'echo', { text: 'one' }),
    call(protocol, 'echo', { text: 'two' }),
    { text: 'Thinking aloud, without a tool.' },
    call(protocol, 'echo', { text: 'three' }),
    call(protocol, 'task_completion', { result: 'done' }),
  ];
}

function createAgent(protocol: ToolProtocol) {
  const provider = new ScriptedProvider(script(protocol), {
    capabilities: { modelId: 'model-1', nativeTools: protocol === 'native' },
  });
  const agent = new DefaultAgent(provider, {
    systemPrompt: 'You are a careful assistant.',
    toolProtocol: protocol,
    maxIterations: 10,
    tools: [echo],
    instructions: { environment: { cwd: '/repo', shell: 'bash' } },
  });
  return { agent, provider };
}

const prefix = (request: { systemPrompt: string; tools: readonly unknown[] }) =>
  JSON.stringify({ systemPrompt: request.systemPrompt, tools: request.tools });

describe.each(['native', 'xml'] as const)('the request prefix in the %s protocol', (protocol) => {
  it('is byte-identical on every call of a multi-step run', async () => {
    const { agent, provider } = createAgent(protocol);

    const result = await agent.run('Echo three words.');

    expect(result.exit).toBe('task_completion');
    expect(provider.requests).toHaveLength(5);
    const first = prefix(provider.requests[0] as (typeof provider.requests)[number]);
    for (const request of provider.requests) expect(prefix(request)).toBe(first);
    // Each call added to the conversation, so the prefix stayed put while the messages grew.
    expect(provider.requests.at(-1)?.messages.length).toBeGreaterThan(provider.requests[0]?.messages.length ?? 0);
  });

  it('is byte-identical across runs with the same configuration', async () => {
    const one = createAgent(protocol);
    const two = createAgent(protocol);

    await one.agent.run('Echo three words.');
    await two.agent.run('Something else entirely.');

    expect(prefix(two.provider.requests[0] as (typeof two.provider.requests)[number])).toBe(
      prefix(one.provider.requests[0] as (typeof one.provider.requests)[number]),
    );
  });

  it('carries the tools in the request (native) or in the system prompt (xml), in registry order', async () => {
    const { agent, provider } = createAgent(protocol);

    await agent.run('Echo three words.');

    const request = provider.requests[0];
    if (protocol === 'native') {
      expect(request?.tools.map((tool) => tool.name)).toEqual(['task_completion', 'ask_question', 'converse', 'echo']);
    } else {
      expect(request?.tools).toEqual([]);
      const headings = [...(request?.systemPrompt ?? '').matchAll(/^## (\w+)$/gm)].map((match) => match[1]);
      expect(headings).toEqual(['task_completion', 'ask_question', 'converse', 'echo']);
    }
  });
});

describe('the request prefix of the wrap-up call', () => {
  it('offers only the loop-control tools, with the same native system prompt, and no other call differs', async () => {
    const provider = new ScriptedProvider(
      [
        call('native', 'echo', { text: 'one' }),
        call('native', 'echo', { text: 'two' }),
        call('native', 'task_completion', { result: 'Echoed two words; one remains.' }),
      ],
      { capabilities: { modelId: 'model-1' } },
    );
    const agent = new DefaultAgent(provider, { toolProtocol: 'native', maxIterations: 3, tools: [echo] });

    const result = await agent.run('Echo three words.');

    expect(result.exit).toBe('max_iterations');
    const [first, second, last] = provider.requests;
    expect(prefix(second as NonNullable<typeof second>)).toBe(prefix(first as NonNullable<typeof first>));
    expect(last?.systemPrompt).toBe(first?.systemPrompt);
    expect(last?.tools.map((tool) => tool.name)).toEqual(['task_completion', 'ask_question', 'converse']);
  });
});

describe("the model's instructions", () => {
  it("come from the provider's capabilities into every request's system prompt, after the base instructions", async () => {
    const provider = new ScriptedProvider(
      [call('native', 'echo', { text: 'one' }), call('native', 'task_completion', { result: 'done' })],
      {
        capabilities: { instructions: 'Change files with apply_patch.' },
      },
    );
    const agent = new DefaultAgent(provider, { systemPrompt: 'You are a careful assistant.', tools: [echo] });
    await agent.run('go');
    const prompts = provider.requests.map((request) => request.systemPrompt);
    expect(new Set(prompts).size).toBe(1);
    expect(prompts[0]).toContain('Change files with apply_patch.\n\nYou are a careful assistant.');
  });
});
