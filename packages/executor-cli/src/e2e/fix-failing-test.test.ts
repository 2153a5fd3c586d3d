// The issue's end-to-end case: the interactive `agentloop`, asked to fix a failing test in a small
// project, reads the test and the source, edits the source and runs the tests, through the workspace
// tools and the approval screens, which the test answers as a person would. The built command runs in
// tmux against a scripted OpenAI-compatible server on 127.0.0.1; the commands the model runs are real.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, SANDBOX } from '../test-support/cli-fixture.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/;
// The screens wait for the model's replies and for real processes (node --test, in the sandbox): room for
// a loaded machine.
const STEP_MS = 45_000;

const MATH = 'export function add(a, b) {\n  return a - b;\n}\n';
const MATH_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { add } from './math.js';

test('add sums two numbers', () => {
  assert.equal(add(2, 3), 5);
});
`;

const terminal = useTerminalTest('fix');

/** The results the model got for its tool calls, in order. */
function toolResults(requests: { messages: { role: string; content: unknown }[] }[]): string[] {
  const last = requests.at(-1)?.messages ?? [];
  return last.filter((message) => message.role === 'tool').map((message) => String(message.content));
}

describe.skipIf(!tmuxAvailable())('agentloop fixes a failing test, asking before it changes anything (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('reads, shows the diff and the command for approval, edits and runs the tests', async () => {
    const workspace = terminal.workspace();
    writeFileSync(
      join(workspace.project, 'package.json'),
      '{ "type": "module", "scripts": { "test": "node --test" } }\n',
    );
    writeFileSync(join(workspace.project, 'math.js'), MATH);
    writeFileSync(join(workspace.project, 'math.test.js'), MATH_TEST);
    const server = await terminal.server([
      { text: 'Let me read the test first.', toolCalls: [{ name: 'read_file', arguments: { path: 'math.test.js' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'math.js' } }] },
      {
        text: 'add subtracts; it should add.',
        toolCalls: [{ name: 'edit_file', arguments: { path: 'math.js', old_text: 'a - b', new_text: 'a + b' } }],
      },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'node --test' } }] },
      {
        toolCalls: [
          {
            name: 'task_completion',
            arguments: {
              result: 'Fixed `add` in math.js: it subtracted. The test passes now.',
              artifacts: ['math.js'],
            },
          },
        ],
      },
    ]);
    // `ask`: reading runs at once, every change and command waits for an answer. `node` on PATH for the
    // model's command, as on a developer's machine.
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`;
    const tmux = terminal.startTmux(
      workspace.commandLine(
        ['--provider', 'openai', '--base-url', server.url, '--model', 'test-model', '--approval', 'ask'],
        { PATH: path },
      ),
      { width: 120, height: 50 },
    );
    await tmux.waitFor(PROMPT, STEP_MS);
    tmux.type('The test fails. Fix it.');
    tmux.press('Enter');

    // The edit: its diff, from the file as it is, and the choices.
    let screen = await tmux.waitFor(/Make this change\?\n[\s\S]*↑\/↓ and Enter, or y \/ a \/ n/, STEP_MS);
    expect(screen).toMatch(/✓ read_file\(path: "math\.test\.js"\) \d+ ms → import assert/);
    expect(screen).toMatch(/✓ read_file\(path: "math\.js"\) \d+ ms → export function add/);
    expect(screen).toContain(
      [
        '⚠ edit_file needs your approval (edit_file can change things)',
        '  math.js (+1 -1)',
        '  @@ -1,3 +1,3 @@',
        '   export function add(a, b) {',
        '  -  return a - b;',
        '  +  return a + b;',
        '   }',
      ].join('\n'),
    );
    expect(screen).toMatch(
      /● Yes, once \(y\)\n.*○ Yes, and don't ask again this session for edit_file \(a\)\n.*○ No, and tell the agent what to do instead \(n\)/,
    );
    // Nothing changed before the answer.
    expect(readFileSync(join(workspace.project, 'math.js'), 'utf8')).toBe(MATH);
    tmux.type('y');

    // The command, once the edit ran.
    screen = await tmux.waitFor(/Run this command\?\n[\s\S]*↑\/↓ and Enter, or y \/ a \/ n/, STEP_MS);
    expect(screen).toMatch(/✓ edit_file\(path: "math\.js", .*\) \d+ ms → Edited "math\.js"/);
    expect(screen).toMatch(/⚠ run_command needs your approval \(.*\)\n {2}\$ node --test\n/);
    // Where it runs, and how: in the sandbox, or (where it cannot run and the test turned it off) without.
    expect(screen).toContain(
      `  $ node --test\n  in ${workspace.project}\n  ${
        SANDBOX.available
          ? 'in the sandbox: only the working directory writable, no network'
          : '⚠ without a sandbox (sandbox = off): with your rights, files and network'
      }\n`,
    );
    expect(screen).toContain("Yes, and don't ask again this session for commands starting with `node --test` (a)");
    expect(readFileSync(join(workspace.project, 'math.js'), 'utf8')).toBe(MATH.replace('a - b', 'a + b'));
    tmux.type('a');

    screen = await tmux.waitFor(/✔ Done\n[\s\S]*\n›$/, STEP_MS);
    expect(screen).toMatch(/✓ run_command\(command: "node --test"\) [\d.]+ m?s → Exit code 0/);
    expect(screen).toContain('Fixed add in math.js: it subtracted. The test passes now.');
    // The model got the tests' real output: they pass now.
    const [, , , ran] = toolResults(server.requests);
    expect(ran).toMatch(/^Exit code 0 \(/);
    expect(ran).toMatch(/# pass 1\n# fail 0/);
    expect(server.requests).toHaveLength(5);
    tmux.press('C-d');
    expect(await tmux.exitStatus(STEP_MS)).toBe(0);
  }, 240_000);
});
