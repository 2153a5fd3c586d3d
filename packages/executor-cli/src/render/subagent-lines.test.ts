import type { AgentEvent, AgentEventMap } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { SubagentLines } from './subagent-lines.js';
import { createStyle } from './terminal.js';

const style = createStyle(false);
const path = [{ toolName: 'researcher', toolCallId: 'c1' }];
const wrap = (event: AgentEvent, at = path): AgentEventMap['subagent-event'] => ({
  type: 'subagent-event',
  path: at,
  event,
});

describe('SubagentLines', () => {
  it("shows a child's finished tool call as one indented line named by its path", () => {
    const lines = new SubagentLines(style, 100);
    const call = wrap({
      type: 'tool-call',
      iteration: 1,
      toolCallId: 't1',
      name: 'read_file',
      arguments: { path: 'a.md' },
    });
    expect(lines.view(call, false)).toEqual({ status: 'researcher › read_file(path: "a.md")' });
    const result = wrap({
      type: 'tool-result',
      iteration: 1,
      toolCallId: 't1',
      name: 'read_file',
      content: '# A',
      value: '# A',
      durationMs: 3,
    });
    expect(lines.view(result, false)).toEqual({ line: '  ↳ researcher ✓ read_file(path: "a.md") 3 ms → # A' });
  });

  it('indents a grandchild one step more and names the whole path', () => {
    const lines = new SubagentLines(style, 100);
    const deep = [...path, { toolName: 'digger', toolCallId: 'g1' }];
    const failed = wrap(
      {
        type: 'tool-result-error',
        iteration: 1,
        toolCallId: 't2',
        name: 'run_command',
        content: 'exit 1',
        code: 'tool_failed',
        durationMs: 5,
      },
      deep,
    );
    expect(lines.view(failed, false).line).toBe('    ↳ researcher › digger ✗ run_command() 5 ms → error: exit 1');
  });

  it("shows a child's text and thinking only in verbose mode, each on one line", () => {
    const lines = new SubagentLines(style, 100);
    const message = wrap({ type: 'message-end', iteration: 1, text: 'Looking at\nthe notes.' });
    const thinking = wrap({ type: 'thinking-end', iteration: 1, text: 'Which file?' });
    expect(lines.view(message, false)).toEqual({});
    expect(lines.view(thinking, false)).toEqual({});
    expect(lines.view(message, true)).toEqual({ line: '  ↳ researcher: Looking at the notes.' });
    expect(lines.view(thinking, true)).toEqual({ line: '  ↳ researcher ✻ Which file?' });
  });

  it("shows nothing of a child's loop-control calls that went through", () => {
    const lines = new SubagentLines(style, 100);
    const done = wrap({
      type: 'tool-result',
      iteration: 2,
      toolCallId: 't3',
      name: 'task_completion',
      content: 'ok',
      value: 'ok',
      durationMs: 0,
    });
    expect(lines.view(done, false)).toEqual({});
  });
});
