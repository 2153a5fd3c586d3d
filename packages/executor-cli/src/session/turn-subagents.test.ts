import { PassThrough } from 'node:stream';
import type { AgentOptions } from '@agentloop/core';
import { DefaultAgent, defineTool } from '@agentloop/core';
import type { ScriptedResponse, ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalPrompter, ApprovalScreen } from '../approval/index.js';
import type { ElicitationPrompter } from '../elicitation/index.js';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/index.js';
import type { QuestionPrompter } from './ask-question.js';
import { Turn } from './turn.js';

const call = (name: string, args: unknown): ScriptedResponse => ({ toolCalls: [{ name, arguments: args }] });
const done = (result: string) => call('task_completion', { result });

/** A session agent whose `researcher` tool is a child agent on its own script. */
function agents(childSteps: ScriptStep[], childOptions: AgentOptions = {}) {
  const child = new DefaultAgent(new ScriptedProvider(childSteps), childOptions);
  const parent = new DefaultAgent(
    new ScriptedProvider([call('researcher', { task: 'Find the weather.' }), done('Reported.')]),
    { tools: [child.asTool({ name: 'researcher', description: 'Researches.' })] },
  );
  return parent;
}

function turn(
  agent: DefaultAgent,
  options: { approve?: ApprovalPrompter; askQuestion?: QuestionPrompter; elicit?: ElicitationPrompter } = {},
) {
  const output = new MemoryOutput();
  const renderOptions = { style: createStyle(false), width: 100 };
  const approvals = options.approve
    ? { prompter: options.approve, preview: { workspace: '/work' }, elicit: options.elicit }
    : undefined;
  return { output, turn: new Turn(agent, output, new PassThrough(), renderOptions, approvals, options.askQuestion) };
}

describe('a turn with a sub-agent', () => {
  it("asks the user a child's tool's elicitation, naming the child, and the tool gets the answer", async () => {
    const answers: string[] = [];
    const form = defineTool({
      name: 'form',
      description: 'Asks for a city.',
      parameters: z.object({}),
      execute: async (_args, context) => {
        const answer = await context.elicit?.({
          mode: 'form',
          message: 'Which city?',
          schema: { type: 'object', properties: { city: { type: 'string' } } },
        });
        answers.push(JSON.stringify(answer));
        return 'asked';
      },
    });
    const agent = agents([call('form', {}), done('Asked.')], { tools: [form] });
    const asked: string[] = [];
    const { turn: running } = turn(agent, {
      approve: async () => ({ decision: 'allow-once' }),
      elicit: async (event) => {
        asked.push(`${event.name}: ${event.message}`);
        return { action: 'accept', content: { city: 'Bergen' } };
      },
    });

    await running.run('Ask for a city.');

    expect(asked).toEqual(['researcher › form: Which city?']);
    expect(answers).toEqual([JSON.stringify({ action: 'accept', content: { city: 'Bergen' } })]);
  });

  it("asks the user the child's question and the child goes on with the answer", async () => {
    const agent = agents([
      call('ask_question', { question: 'Which city?', suggestions: ['Oslo', 'Bergen'] }),
      (request) => done(`Rain in ${JSON.stringify(request.messages.at(-1)?.content)}`),
    ]);
    const asked: unknown[] = [];
    const { turn: running, output } = turn(agent, {
      askQuestion: async (question) => {
        asked.push(question);
        return 'Bergen';
      },
    });

    const outcome = await running.run('What is the weather?');

    expect(asked).toEqual([{ question: 'Which city?', suggestions: ['Oslo', 'Bergen'] }]);
    expect(outcome.result?.exit).toBe('task_completion');
    expect(output.text).toMatch(/✓ researcher\(task: "Find the weather\."\) .* → Rain in .*Bergen/);
  });

  it("sends the user's answer to a child's approval request down to the child, naming the child on the screen", async () => {
    const ran: string[] = [];
    const note = defineTool({
      name: 'note',
      description: 'Notes something.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        ran.push(text);
        return 'noted';
      },
    });
    const agent = agents([call('note', { text: 'rain' }), done('Noted the rain.')], {
      tools: [note],
      approval: 'ask',
    });
    const screens: ApprovalScreen[] = [];
    const { turn: running, output } = turn(agent, {
      approve: async (screen) => {
        screens.push(screen);
        return { decision: 'allow-once' };
      },
    });

    await running.run('What is the weather?');

    expect(screens[0]?.text).toContain(
      '⚠ note needs your approval (asked by the researcher agent: note can change things)',
    );
    expect(ran).toEqual(['rain']);
    expect(output.text).toContain('  ↳ researcher ✓ note(text: "rain")');
  });
});
