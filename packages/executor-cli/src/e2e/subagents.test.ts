// A sub-agent of the configuration (`[agents.NAME]`) in the interactive `agentloop`: the session's agent
// calls it as a tool, its steps show under the call, and its approval request is answered on the
// session's terminal. The built command runs in tmux against a scripted OpenAI-compatible server on
// 127.0.0.1, which serves the parent's and the child's requests in turn.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli-fixture.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/;
const STEP_MS = 45_000;
const terminal = useTerminalTest('subagents');

describe.skipIf(!tmuxAvailable())('agentloop with a sub-agent of [agents.NAME] (tmux)', () => {
  beforeAll(() => assertBuilt());

  it("shows the child's steps under its call and asks the child's approval on the parent's terminal", async () => {
    const workspace = terminal.workspace();
    mkdirSync(join(workspace.project, '.agentloop'), { recursive: true });
    writeFileSync(
      join(workspace.project, '.agentloop', 'config.toml'),
      [
        '[agents.writer]',
        'description = "Writes files it is told to write."',
        'system_prompt = "You write files."',
        'tools = ["write_file"]',
        '',
      ].join('\n'),
    );
    const server = await terminal.server([
      // The session's agent hands the work to the writer.
      { toolCalls: [{ name: 'writer', arguments: { task: 'Write "hello" to hello.txt.' } }] },
      // The writer, in a conversation of its own.
      { toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'hello\n' } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Wrote hello.txt.' } }] },
      // The session's agent again, with the writer's result.
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'The writer wrote hello.txt.' } }] },
    ]);
    const tmux = terminal.startTmux(
      workspace.commandLine([
        '--provider',
        'openai',
        '--base-url',
        server.url,
        '--model',
        'test-model',
        '--approval',
        'ask',
      ]),
      { width: 120, height: 50 },
    );
    await tmux.waitFor(PROMPT, STEP_MS);
    tmux.type('Write hello to hello.txt.');
    tmux.press('Enter');

    let screen = await tmux.waitFor(/Make this change\?\n[\s\S]*↑\/↓ and Enter, or y \/ a \/ n/, STEP_MS);
    expect(screen).toContain(
      '⚠ write_file needs your approval (asked by the writer agent: write_file can change things)',
    );
    expect(existsSync(join(workspace.project, 'hello.txt'))).toBe(false);
    tmux.type('y');

    screen = await tmux.waitFor(/✔ Done\n[\s\S]*\n›$/, STEP_MS);
    // The child's step, one line under the call, then the call's own line with the child's result.
    expect(screen).toMatch(/ {2}↳ writer ✓ write_file\(path: "hello\.txt", .*\) \d+ ms → /);
    expect(screen).toMatch(/✓ writer\(task: "Write \\"hello\\" to hello\.txt\."\) [\d.]+ m?s → Wrote hello\.txt\./);
    expect(screen).toContain('The writer wrote hello.txt.');
    expect(readFileSync(join(workspace.project, 'hello.txt'), 'utf8')).toBe('hello\n');
    // The child started from its task alone, with its own prompt and the one tool it was given.
    const childFirst = server.requests[1] as { messages: { role: string; content: unknown }[]; tools?: unknown[] };
    expect(childFirst.messages.at(-1)).toMatchObject({ role: 'user', content: 'Write "hello" to hello.txt.' });
    expect(JSON.stringify(childFirst.messages[0])).toContain('You write files.');
    const toolNames = (childFirst.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name);
    expect(toolNames.sort()).toEqual(['ask_question', 'converse', 'task_completion', 'write_file']);
    tmux.press('C-d');
    expect(await tmux.exitStatus(STEP_MS)).toBe(0);
  }, 240_000);
});
