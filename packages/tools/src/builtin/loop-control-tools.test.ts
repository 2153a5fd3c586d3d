import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../tool-registry.js';
import { isLoopControlToolName, LOOP_CONTROL_TOOL_NAMES, loopControlTools } from './loop-control-tools.js';

// The schemas are checked through the registry's validator, the way the loop checks a model's call.
const registry = new ToolRegistry();
const validate = (toolName: string, args: unknown) => registry.get(toolName)!.validate(args);

describe('loop-control tools', () => {
  it('are listed in the order task_completion, ask_question, converse', () => {
    expect(LOOP_CONTROL_TOOL_NAMES).toEqual(['task_completion', 'ask_question', 'converse']);
    expect(loopControlTools.map((tool) => tool.name)).toEqual(['task_completion', 'ask_question', 'converse']);
  });

  it('are recognised by name, and other names are not', () => {
    expect(LOOP_CONTROL_TOOL_NAMES.map(isLoopControlToolName)).toEqual([true, true, true]);
    expect(['web_search', 'Task_Completion', ''].map(isLoopControlToolName)).toEqual([false, false, false]);
  });

  it('describe their arguments to the model with the required fields listed', () => {
    expect(registry.definitions().map((definition) => [definition.name, definition.inputSchema.required])).toEqual([
      ['task_completion', ['result']],
      ['ask_question', ['question']],
      ['converse', ['message']],
    ]);
  });

  describe('task_completion', () => {
    it('accepts a result with artifacts', async () => {
      expect(await validate('task_completion', { result: 'Done.', artifacts: ['report.md'] })).toStrictEqual({
        ok: true,
        value: { result: 'Done.', artifacts: ['report.md'] },
      });
    });

    it('trims the result', async () => {
      expect(await validate('task_completion', { result: '  Done.\n' })).toStrictEqual({
        ok: true,
        value: { result: 'Done.' },
      });
    });

    it('rejects an empty result', async () => {
      expect(await validate('task_completion', { result: '' })).toStrictEqual({
        ok: false,
        message: 'result: must not be empty',
      });
    });

    it('rejects a whitespace-only result', async () => {
      expect(await validate('task_completion', { result: ' \n\t' })).toStrictEqual({
        ok: false,
        message: 'result: must not be empty',
      });
    });

    it('rejects a missing result', async () => {
      expect(await validate('task_completion', { artifacts: [] })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^result: /),
      });
    });
  });

  describe('ask_question', () => {
    it('accepts a question with four suggestions', async () => {
      const args = { question: 'Which branch?', suggestions: ['main', 'develop', 'release', 'hotfix'] };

      expect(await validate('ask_question', args)).toStrictEqual({ ok: true, value: args });
    });

    it('rejects more than four suggestions', async () => {
      const args = { question: 'Which branch?', suggestions: ['a', 'b', 'c', 'd', 'e'] };

      expect(await validate('ask_question', args)).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^suggestions: .*4/),
      });
    });

    it('rejects a whitespace-only question', async () => {
      expect(await validate('ask_question', { question: '   ' })).toStrictEqual({
        ok: false,
        message: 'question: must not be empty',
      });
    });

    it('limits suggestions to four in the schema the model sees', () => {
      const schema = registry.get('ask_question')!.definition.inputSchema as {
        properties: { suggestions: { maxItems?: number } };
      };

      expect(schema.properties.suggestions.maxItems).toBe(4);
    });
  });

  describe('converse', () => {
    it('accepts a message', async () => {
      expect(await validate('converse', { message: 'Hello!' })).toStrictEqual({
        ok: true,
        value: { message: 'Hello!' },
      });
    });

    it('rejects an empty message', async () => {
      expect(await validate('converse', { message: '' })).toStrictEqual({
        ok: false,
        message: 'message: must not be empty',
      });
    });
  });

  it('each return a result text for the history, since every call needs exactly one result', async () => {
    const context = {
      signal: new AbortController().signal,
      sessionId: 'session-1',
      workspace: '/workspace',
      toolCallId: 'call-1',
      reportProgress: () => {},
    };
    const results = await Promise.all(loopControlTools.map((tool) => tool.execute({}, context)));

    expect(results).toEqual([
      'Task completion delivered to the user.',
      'Question delivered to the user; their answer follows.',
      'Message delivered to the user.',
    ]);
  });
});
