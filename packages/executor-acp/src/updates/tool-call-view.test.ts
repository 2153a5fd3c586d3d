import { describe, expect, it } from 'vitest';
import { toolCallView } from './tool-call-view.js';

const view = (name: string, args: unknown, annotations?: Record<string, boolean>) =>
  toolCallView({ name, arguments: args, cwd: '/project', annotations });

describe('toolCallView', () => {
  it('shows the workspace tools by what they do, with absolute locations', () => {
    expect(view('read_file', { path: 'a.ts', start_line: 3, end_line: 9 })).toEqual({
      kind: 'read',
      title: 'Read `a.ts` (lines 3-9)',
      locations: [{ path: '/project/a.ts', line: 3 }],
      content: [],
    });
    expect(view('write_file', { path: 'new.ts', content: 'x' })).toEqual({
      kind: 'edit',
      title: 'Write `new.ts`',
      locations: [{ path: '/project/new.ts' }],
      content: [{ type: 'diff', path: '/project/new.ts', oldText: null, newText: 'x' }],
    });
    expect(view('search', { pattern: 'TODO', path: 'src' })).toMatchObject({
      kind: 'search',
      title: 'Search for `TODO` in `src`',
      locations: [{ path: '/project/src' }],
    });
    expect(view('list_files', { pattern: '*.ts' })).toMatchObject({
      kind: 'search',
      title: 'List files matching `*.ts`',
    });
    expect(view('run_command', { command: 'npm test', directory: 'pkg' })).toEqual({
      kind: 'execute',
      title: 'Run `npm test`',
      locations: [{ path: '/project/pkg' }],
      content: [],
    });
  });

  it('gives other tools a kind from their annotations and a title from their first text argument', () => {
    expect(view('github__create_issue', { title: 'Crash on start\nmore', body: 'x' }, { openWorld: true })).toEqual({
      kind: 'fetch',
      title: 'github__create_issue: Crash on start',
      locations: [],
      content: [],
    });
    expect(view('clock', {}, { readOnly: true })).toMatchObject({ kind: 'read', title: 'clock' });
    expect(view('mystery', { n: 1 })).toMatchObject({ kind: 'other', title: 'mystery' });
  });

  it('never throws on arguments the model got wrong', () => {
    expect(view('edit_file', 'not an object')).toEqual({ kind: 'edit', title: 'Edit …', locations: [], content: [] });
    expect(view('run_command', [1, 2])).toMatchObject({ title: 'Run …' });
    expect(view('read_file', { path: 'x'.repeat(200) }).title).toHaveLength('Read ``'.length + 80);
  });
});
