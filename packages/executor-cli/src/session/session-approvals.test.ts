import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { ApprovalOption } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { createEditFileTool } from '@agentloop/workspace-tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalControl, ApprovalPrompter, ApprovalScreen } from '../approval/index.js';
import { MemoryOutput } from '../test-support/index.js';
import { CliExecutor } from './cli-executor.js';

let workspace: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'agentloop-session-approvals-'));
  writeFileSync(join(workspace, 'math.js'), 'export const add = (a, b) => a - b;\n');
});

afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const converse = (message: string): ScriptStep => ({ toolCalls: [{ name: 'converse', arguments: { message } }] });
const fix: ScriptStep = {
  toolCalls: [{ name: 'edit_file', arguments: { path: 'math.js', old_text: 'a - b', new_text: 'a + b' } }],
};

/** A session on an agent with edit_file, its approvals answered by `approve`; resolves with what it wrote. */
async function session(
  lines: string[],
  steps: ScriptStep[],
  options: { approval?: ApprovalOption; approve?: ApprovalPrompter; control?: ApprovalControl } = {},
) {
  const provider = new ScriptedProvider(steps);
  const agent = new DefaultAgent(provider, {
    tools: [createEditFileTool()],
    workspace,
    approval: options.approval ?? 'ask',
  });
  const input = new PassThrough();
  input.end(lines.map((line) => `${line}\n`).join(''));
  const output = new MemoryOutput();
  const errorOutput = new MemoryOutput();
  const status = await new CliExecutor(agent, {
    input,
    output,
    errorOutput,
    environment: {},
    handleSignals: false,
    approvalPreview: { workspace },
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.control ? { approval: options.control } : {}),
  }).run();
  return { status, text: output.text, errors: errorOutput.text, provider, agent };
}

/** A prompter that answers each request in turn and keeps the screens it was shown. */
function answering(...answers: Awaited<ReturnType<ApprovalPrompter>>[]) {
  const screens: ApprovalScreen[] = [];
  const approve: ApprovalPrompter = async (screen) => {
    screens.push(screen);
    return answers.shift() ?? { decision: 'deny' };
  };
  return { approve, screens };
}

const fileNow = () => readFileSync(join(workspace, 'math.js'), 'utf8');

describe('approvals in the session', () => {
  it('shows the diff of an edit that needs approval, and runs it once allowed', async () => {
    const { approve, screens } = answering({ decision: 'allow-once' });
    const { text } = await session(['fix it'], [fix, converse('Fixed.')], { approve });
    expect(screens).toHaveLength(1);
    expect(screens[0]?.text).toContain(
      '  math.js (+1 -1)\n  @@ -1,1 +1,1 @@\n  -export const add = (a, b) => a - b;\n  +export const add = (a, b) => a + b;\n',
    );
    expect(fileNow()).toBe('export const add = (a, b) => a + b;\n');
    expect(text).toMatch(/✓ edit_file\(path: "math\.js".* → Edited/);
    expect(text).toContain('Fixed.');
  });

  it('refuses with the message the user typed, which the model reads', async () => {
    const { approve } = answering({ decision: 'deny', message: 'multiply instead' });
    const { provider, text } = await session(['fix it'], [fix, converse('OK.')], { approve });
    expect(fileNow()).toBe('export const add = (a, b) => a - b;\n');
    expect(provider.requests[1]?.messages.at(-1)?.content).toMatchObject([
      {
        type: 'tool-result',
        isError: true,
        content: 'Not run: the user declined this call and said: multiply instead',
      },
    ]);
    expect(text).toMatch(/✗ edit_file\(.* → error: Not/);
  });

  it('cancels the turn on Ctrl-C at a request, keeping the session', async () => {
    const { approve } = answering('interrupt');
    const { status, text, provider } = await session(['fix it', 'hello'], [fix, converse('Hi.')], { approve });
    expect(status).toBe(0);
    expect(fileNow()).toBe('export const add = (a, b) => a - b;\n');
    expect(text).toContain('Cancelled.');
    expect(text).toContain('Hi.');
    expect(provider.requests).toHaveLength(2);
  });

  it('asks no more about the tool after allow for the session', async () => {
    writeFileSync(join(workspace, 'math.js'), 'a - b;\nc - d;\n');
    const again: ScriptStep = {
      toolCalls: [{ name: 'edit_file', arguments: { path: 'math.js', old_text: 'c - d', new_text: 'c + d' } }],
    };
    const { approve, screens } = answering({ decision: 'allow-session' });
    await session(['fix it'], [fix, again, converse('Both fixed.')], { approve });
    expect(screens).toHaveLength(1);
    expect(fileNow()).toBe('a + b;\nc + d;\n');
  });

  it('refuses every request when the session has no terminal to ask on', async () => {
    const { text, provider } = await session(['fix it'], [fix, converse('I could not.')]);
    expect(text).toContain('⚠ edit_file needs your approval (edit_file can change things)\n  math.js (+1 -1)\n');
    expect(text).toContain('⊘ Refused: there is no terminal to ask for approval.\n');
    expect(fileNow()).toBe('export const add = (a, b) => a - b;\n');
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain('no one can approve calls in this session');
  });

  it('shows and changes the approval mode with /approval', async () => {
    const { approve, screens } = answering();
    const { text } = await session(
      ['/approval', '/approval yolo', '/approval never', '/approval', 'fix it'],
      [fix, converse('Done.')],
      {
        approve,
      },
    );
    expect(text).toContain("Approval mode: the agent's own policy\nChange it with /approval MODE:\n  read-only");
    expect(text).toContain('✓ Approval mode: yolo (nothing asks), from the next tool call.\n');
    expect(text).toContain('✗ Unknown approval mode "never": use read-only, ask, auto or yolo.\n');
    expect(text).toContain('› /approval\nApproval mode: yolo (nothing asks)\n');
    expect(screens).toHaveLength(0);
    expect(fileNow()).toBe('export const add = (a, b) => a + b;\n');
  });

  it('shows the approval control’s warning once, before the first turn', async () => {
    const control: ApprovalControl = {
      mode: 'auto',
      setMode: () => undefined,
      notice: () => 'No sandbox: bwrap is missing; run_command asks before every command, which runs without it.',
    };
    const { errors } = await session(['hello', 'again'], [converse('Hi.'), converse('Hi again.')], {
      approval: 'auto',
      control,
    });
    expect(errors).toBe(
      '⚠ No sandbox: bwrap is missing; run_command asks before every command, which runs without it.\n',
    );
  });
});
