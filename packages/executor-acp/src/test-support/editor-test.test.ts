// The hooks of useEditorTest: what one test made and connected is gone before the next test runs. The
// tests run in order and the second checks what the first left, since the hooks run between them.
import { existsSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { useEditorTest } from './editor-test.js';
import { scriptedExecutor } from './scripted-executor.js';

describe('useEditorTest', () => {
  const fixture = useEditorTest();
  let dir = '';
  let closed: ReturnType<typeof vi.fn> | undefined;
  let checked: ReturnType<typeof vi.fn> | undefined;

  it('gives each test a project of its own and connects editors to the executor', async () => {
    dir = fixture.project.dir;
    expect(existsSync(dir)).toBe(true);
    const editor = await fixture.connect(scriptedExecutor([]).executor);
    const answer = await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(answer.protocolVersion).toBe(1);
    closed = vi.fn(editor.close.bind(editor));
    checked = vi.fn(editor.check.assertValid.bind(editor.check));
    editor.close = closed as typeof editor.close;
    editor.check.assertValid = checked as typeof editor.check.assertValid;
  });

  it('closes and checks the editors after the test, and removes its project', () => {
    expect(dir).not.toBe('');
    expect(existsSync(dir)).toBe(false);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(checked).toHaveBeenCalledTimes(1);
    expect(fixture.project.dir).not.toBe(dir);
  });
});
