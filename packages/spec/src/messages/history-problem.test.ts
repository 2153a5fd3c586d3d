import { describe, expect, it } from 'vitest';
import { findHistoryProblem } from './history-problem.js';
import type { AssistantMessage, Message, ToolMessage } from './message.js';
import { userMessage } from './message.js';

const call = (id: string, name = 'echo'): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: name, arguments: {} }],
});
const result = (...ids: string[]): ToolMessage => ({
  role: 'tool',
  content: ids.map((id) => ({ type: 'tool-result', toolCallId: id, toolName: 'echo', content: 'ok', isError: false })),
});

function nested(levels: number): unknown {
  let value: unknown = {};
  for (let level = 0; level < levels; level++) value = { value };
  return value;
}

describe('findHistoryProblem', () => {
  it('finds nothing wrong with calls answered right after them, in any order', () => {
    const twoCalls: AssistantMessage = { role: 'assistant', content: [...call('a').content, ...call('b').content] };
    expect(findHistoryProblem([userMessage('go'), twoCalls, result('b', 'a'), userMessage('next')])).toBeUndefined();
  });

  it('skips system messages, which are not sent as part of the history', () => {
    const system: Message = { role: 'system', content: [{ type: 'text', text: 'be brief' }] };
    expect(findHistoryProblem([call('c1'), system, result('c1')])).toBeUndefined();
  });

  it('names a call left without a result before the next message', () => {
    expect(findHistoryProblem([userMessage('go'), call('c1'), userMessage('next')])).toBe(
      'tool call "c1" (echo) has no result before message 3 (user)',
    );
  });

  it('names a call left without a result at the end', () => {
    expect(findHistoryProblem([call('c1')])).toBe('tool call "c1" (echo) has no result before the end of the history');
  });

  it('names a result whose call was not the one just made', () => {
    expect(findHistoryProblem([call('c1'), result('c1'), call('c2'), result('c1')])).toBe(
      'message 4 (tool) has a result for tool call "c1", which no call just before it made',
    );
  });

  it('names two calls with one id', () => {
    const twice: AssistantMessage = { role: 'assistant', content: [...call('c1').content, ...call('c1').content] };
    expect(findHistoryProblem([twice, result('c1', 'c1')])).toBe(
      'message 1 (assistant) has two tool calls with the id "c1"',
    );
  });

  it('names arguments that cannot be serialised, such as 10,000 levels of nesting', () => {
    let deep: unknown = {};
    for (let level = 0; level < 10_000; level++) deep = { deep };
    const message: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'echo', arguments: deep }],
    };
    expect(findHistoryProblem([message, result('c1')])).toMatch(/^message 1 \(assistant\) cannot be serialised: /);
  });

  it.each([
    ['a bigint', { count: 10n }, 'it holds a bigint'],
    ['nesting deeper than 256 levels', nested(300), 'it nests deeper than 256 levels, or refers to itself'],
  ])('names arguments holding %s', (_case, value, problem) => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'echo', arguments: value }],
    };
    expect(findHistoryProblem([message, result('c1')])).toBe(`message 1 (assistant) cannot be serialised: ${problem}`);
  });

  it('accepts what JSON can hold, including values with toJSON and nesting of 64 levels', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', arguments: { at: new Date(0), deep: nested(64) } },
      ],
    };
    expect(findHistoryProblem([message, result('c1')])).toBeUndefined();
  });

  it('accepts a result with images, and names images that are not { mediaType, data } strings', () => {
    const withImages = (images: unknown): ToolMessage => ({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'i1', toolName: 'shot', content: 'a screenshot', isError: false, images },
      ] as ToolMessage['content'],
    });
    expect(findHistoryProblem([call('i1'), withImages([{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }])])).toBe(
      undefined,
    );
    expect(findHistoryProblem([call('i1'), withImages('iVBORw0KGgo=')])).toBe(
      'message 2 (tool) cannot be serialised: the images of the result for tool call "i1" are not an array',
    );
    expect(findHistoryProblem([call('i1'), withImages([{ mediaType: 'image/png', data: 7 }])])).toBe(
      'message 2 (tool) cannot be serialised: image 1 of the images of the result for tool call "i1" is not ' +
        '{ mediaType, data } with string values',
    );
  });

  it('names an entry that is not a message at all', () => {
    expect(findHistoryProblem([userMessage('hi'), null as unknown as Message])).toBe(
      'message 2 (no role) is not a message with a role and a content array',
    );
  });

  it('starts at `from`, taking what comes before as already checked', () => {
    const history = [call('c1'), result('c1'), userMessage('next')];
    expect(findHistoryProblem(history)).toBeUndefined();
    // From index 1, the result has no call before it in what is walked.
    expect(findHistoryProblem(history, { from: 1 })).toMatch(/^message 2 \(tool\) has a result for tool call "c1"/);
    expect(findHistoryProblem(history, { from: 2 })).toBeUndefined();
  });
});
