// What a session offers beyond the loop: the model selector, the slash commands, and prompts made of more
// than text.
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { useEditorTest } from '../test-support/editor-test.js';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';

const fixture = useEditorTest();

describe('the model selector', () => {
  it('offers the session’s models and switches the agent’s provider to the one selected', async () => {
    const other = new ScriptedProvider([complete('From the other model.')], { id: 'other' });
    const selected: string[] = [];
    const { executor, made } = scriptedExecutor(
      [[complete('From the first model.')]],
      {},
      {
        extend: () => ({
          models: {
            available: [
              { id: 'first:model-a', name: 'Model A' },
              { id: 'other:model-b', name: 'Model B', description: 'the other one' },
            ],
            current: 'first:model-a',
            select: (id) => {
              selected.push(id);
              return other;
            },
          },
        }),
      },
    );
    const editor = await fixture.connect(executor);
    const created = await editor.agent.request('session/new', { cwd: fixture.project.dir, mcpServers: [] });
    expect(created.configOptions).toEqual([
      expect.objectContaining({ id: 'mode' }),
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: 'first:model-a',
        options: [
          { value: 'first:model-a', name: 'Model A' },
          { value: 'other:model-b', name: 'Model B', description: 'the other one' },
        ],
      },
    ]);
    const { sessionId } = created;
    await editor.prompt(sessionId, 'One.');
    const answer = await editor.agent.request('session/set_config_option', {
      sessionId,
      configId: 'model',
      value: 'other:model-b',
    });
    expect(answer.configOptions[1]).toMatchObject({ id: 'model', currentValue: 'other:model-b' });
    expect(selected).toEqual(['other:model-b']);
    await editor.prompt(sessionId, 'Two.');
    expect(editor.messageText(sessionId)).toBe('From the first model.From the other model.');
    // The conversation went on with the new model.
    expect(JSON.stringify(other.request(0).messages)).toContain('One.');
    made.providers[0]!.assertComplete();
    other.assertComplete();
  });

  it('refuses a model it does not offer, and a session without models refuses any', async () => {
    const { executor } = scriptedExecutor(
      [[]],
      {},
      {
        extend: () => ({
          models: { available: [{ id: 'a', name: 'A' }], current: 'a', select: () => new ScriptedProvider([]) },
        }),
      },
    );
    const editor = await fixture.connect(executor);
    const sessionId = await editor.newSession(fixture.project.dir);
    await expect(
      editor.agent.request('session/set_config_option', { sessionId, configId: 'model', value: 'b' }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('unknown model "b": use one of a') });
    await expect(
      editor.agent.request('session/set_config_option', { sessionId, configId: 'speed', value: 'fast' }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('unknown config option "speed"') });
  });
});

describe('slash commands', () => {
  it('answers /tools, /usage and /clear without the model', async () => {
    const { executor, made } = scriptedExecutor([
      [
        {
          toolCalls: [{ name: 'converse', arguments: { message: 'Hi.' } }],
          usage: { inputTokens: 120, outputTokens: 8 },
        },
      ],
    ]);
    const editor = await fixture.connect(executor);
    const sessionId = await editor.newSession(fixture.project.dir);
    await editor.prompt(sessionId, 'Hello.');
    expect(await editor.prompt(sessionId, '/tools')).toEqual({ stopReason: 'end_turn' });
    expect(editor.messageText(sessionId)).toContain('The agent can call 9 tools:\n- `task_completion`:');
    expect(editor.messageText(sessionId)).toContain(
      '- `run_command`: Run a shell command in the workspace and get its exit code and output',
    );
    await editor.prompt(sessionId, '/usage');
    expect(editor.messageText(sessionId)).toContain(
      '1 prompt in this session: 120 input tokens (0 read from the cache), 8 output tokens.',
    );
    expect(made.agents[0]!.memory.messages().length).toBeGreaterThan(0);
    await editor.prompt(sessionId, '/clear');
    expect(editor.messageText(sessionId)).toContain('Conversation cleared');
    expect(made.agents[0]!.memory.messages()).toEqual([]);
    expect(made.providers[0]!.requests).toHaveLength(1);
  });
});

describe('prompt content', () => {
  it('gives the model linked files as paths and embedded ones as context, and refuses images', async () => {
    const { executor, made } = scriptedExecutor([[complete('Read them.')]]);
    const editor = await fixture.connect(executor);
    const sessionId = await editor.newSession(fixture.project.dir);
    await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'Compare ' },
        { type: 'resource_link', uri: `file://${fixture.project.dir}/a.ts`, name: 'a.ts' },
        { type: 'text', text: ' with this:' },
        {
          type: 'resource',
          resource: {
            uri: `file://${fixture.project.dir}/b.ts`,
            text: 'export const b = 1;',
            mimeType: 'text/typescript',
          },
        },
      ],
    });
    expect(JSON.stringify(made.providers[0]!.lastMessage(0))).toContain(
      JSON.stringify(
        `Compare @${fixture.project.dir}/a.ts with this:\n<context path="${fixture.project.dir}/b.ts">\nexport const b = 1;\n</context>\n`,
      ).slice(1, -1),
    );
    await expect(
      editor.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
      }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('image content is not supported') });
  });
});
