import type { AgentEventMap } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { approvalScreen } from './approval-screen.js';

const style = createStyle(false);

function request(overrides: Partial<AgentEventMap['approval-requested']> = {}): AgentEventMap['approval-requested'] {
  return {
    type: 'approval-requested',
    iteration: 1,
    requestId: 'approval-1',
    toolCallId: 'call_1',
    name: 'edit_file',
    arguments: { path: 'src/math.js', old_text: 'a - b', new_text: 'a + b' },
    annotations: { readOnly: false, destructive: true, openWorld: false },
    reason: 'edit_file can change things',
    choices: ['allow-once', 'allow-session', 'deny'],
    ...overrides,
  };
}

describe('approvalScreen', () => {
  it('shows a sampling request as what it sends to the model, and offers its sampling for the session', () => {
    const screen = approvalScreen(
      request({
        name: 'everything__trigger-sampling-request',
        kind: 'sampling',
        reason: 'MCP server everything asks the model for a completion',
        sampling: {
          server: 'everything',
          systemPrompt: 'You are a helpful test server.',
          messages: [{ role: 'user', text: 'Write a haiku\nabout tests' }],
          maxTokens: 100,
          modelPreferences: { hints: ['claude-haiku'] },
        },
      }),
      { kind: 'arguments' },
      style,
      80,
    );
    expect(screen.text).toBe(
      [
        '⚠ everything__trigger-sampling-request asks to use the model (MCP server everything asks the model for a completion)',
        '  system     You are a helpful test server.',
        '  user       Write a haiku about tests',
        '  up to 100 tokens · model hints: claude-haiku',
        '',
      ].join('\n'),
    );
    expect(screen.question).toBe('Send this to the model?');
    expect(screen.choices.map((choice) => [choice.key, choice.label])).toEqual([
      ['y', 'Yes, once'],
      ['a', "Yes, and don't ask again this session for sampling by everything__trigger-sampling-request"],
      ['n', 'No, and tell the agent what to do instead'],
    ]);
  });

  it('shows an edit as its diff, and offers the tool for the session', () => {
    const screen = approvalScreen(
      request(),
      {
        kind: 'diff',
        path: 'src/math.js',
        created: false,
        added: 1,
        removed: 1,
        lines: [
          { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
          { kind: 'context', text: 'export function add(a, b) {' },
          { kind: 'removed', text: '\treturn a - b;' },
          { kind: 'added', text: '\treturn a + b;' },
          { kind: 'context', text: '}' },
        ],
      },
      style,
      80,
    );
    expect(screen.text).toBe(
      [
        '⚠ edit_file needs your approval (edit_file can change things)',
        '  src/math.js (+1 -1)',
        '  @@ -1,3 +1,3 @@',
        '   export function add(a, b) {',
        '  -  return a - b;',
        '  +  return a + b;',
        '   }',
        '',
      ].join('\n'),
    );
    expect(screen.question).toBe('Make this change?');
    expect(screen.choices).toEqual([
      { key: 'y', label: 'Yes, once', answer: { decision: 'allow-once' } },
      { key: 'a', label: "Yes, and don't ask again this session for edit_file", answer: { decision: 'allow-session' } },
      { key: 'n', label: 'No, and tell the agent what to do instead', answer: { decision: 'deny' } },
    ]);
  });

  it('shows each file of a patch, its diff or why it will fail', () => {
    const screen = approvalScreen(
      request({ name: 'apply_patch', arguments: { patch: '...' }, reason: 'apply_patch can change things' }),
      {
        kind: 'patch',
        files: [
          {
            kind: 'diff',
            path: 'notes.md',
            created: true,
            added: 1,
            removed: 0,
            lines: [
              { kind: 'hunk', text: '@@ -0,0 +1,1 @@' },
              { kind: 'added', text: '# Notes' },
            ],
          },
          { kind: 'problem', path: 'src/math.js', problem: 'the file does not exist, so the patch will fail' },
        ],
      },
      style,
      80,
    );
    expect(screen.text).toBe(
      [
        '⚠ apply_patch needs your approval (apply_patch can change things)',
        '  notes.md (new file, +1)',
        '  @@ -0,0 +1,1 @@',
        '  +# Notes',
        '  src/math.js: the file does not exist, so the patch will fail',
        '',
      ].join('\n'),
    );
    expect(screen.question).toBe('Make these changes?');
  });

  it('shows a command and offers its prefix for the session', () => {
    const command = 'npm test -- --run src/math.test.js';
    const screen = approvalScreen(
      request({
        name: 'run_command',
        arguments: { command, directory: 'app' },
        command,
        reason: 'a rule asks about run_command',
      }),
      { kind: 'command', command, directory: 'app', where: '/work/project/app' },
      style,
      80,
    );
    expect(screen.text).toBe(
      '⚠ run_command needs your approval (a rule asks about run_command)\n  $ npm test -- --run src/math.test.js\n  in /work/project/app\n',
    );
    expect(screen.question).toBe('Run this command?');
    expect(screen.choices[1]).toEqual({
      key: 'a',
      label: "Yes, and don't ask again this session for commands starting with `npm test`",
      answer: { decision: 'allow-session', commandPrefix: 'npm test' },
    });
  });

  it('says where a command runs and that it runs without a sandbox, or in which one', () => {
    const command = 'npm install';
    const event = request({ name: 'run_command', arguments: { command }, command, reason: 'a rule asks' });
    const preview = { kind: 'command' as const, command, directory: '.', where: '/work/project' };
    const unsandboxed = approvalScreen(event, preview, style, 80, {
      unsandboxed: true,
      text: 'without a sandbox (none can run here): with your rights, files and network',
    });
    expect(unsandboxed.text).toBe(
      '⚠ run_command needs your approval (a rule asks)\n  $ npm install\n  in /work/project\n  ⚠ without a sandbox (none can run here): with your rights, files and network\n',
    );
    const sandboxed = approvalScreen(event, preview, style, 80, {
      unsandboxed: false,
      text: 'in the sandbox: only the working directory writable, no network',
    });
    expect(sandboxed.text).toContain(
      '  in /work/project\n  in the sandbox: only the working directory writable, no network\n',
    );
  });

  it('keeps a long diff short, and says how much is left out', () => {
    const lines = Array.from({ length: 50 }, (_, index) => ({ kind: 'added' as const, text: `line ${index}` }));
    const screen = approvalScreen(
      request({ name: 'write_file' }),
      { kind: 'diff', path: 'big.txt', created: true, added: 50, removed: 0, lines },
      style,
      80,
    );
    expect(screen.text).toContain('  big.txt (new file, +50)\n  +line 0\n');
    expect(screen.text).toMatch(/\+line 39\n {2}… 10 more lines of the diff\n$/);
  });

  it('strips the control sequences a model put in the call', () => {
    const evil = 'rm x\x1b]0;pwned\x07\x1b[2J\u202e';
    const screen = approvalScreen(
      request({ name: 'run_command', arguments: { command: evil }, command: evil }),
      { kind: 'command', command: evil, directory: '.', where: '/work/project' },
      style,
      80,
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control sequences are what must not be shown
    expect(screen.text).not.toMatch(/\x1b|\u202e/);
    expect(screen.text).toContain('$ rm x');
  });

  it('says why a change cannot be shown, with its arguments', () => {
    const screen = approvalScreen(
      request(),
      { kind: 'problem', path: 'src/math.js', problem: 'old_text does not occur in the file, so the edit will fail' },
      style,
      80,
    );
    expect(screen.text).toBe(
      '⚠ edit_file needs your approval (edit_file can change things)\n  src/math.js: old_text does not occur in the file, so the edit will fail\n  path: "src/math.js", old_text: "a - b", new_text: "a + b"\n',
    );
  });
});
