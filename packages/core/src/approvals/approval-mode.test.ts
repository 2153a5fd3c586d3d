import { describe, expect, it } from 'vitest';
import { type ApprovalMode, createApprovalPolicy } from './approval-mode.js';
import type { ApprovalRequest } from './approval-policy.js';

function request(overrides: Partial<ApprovalRequest> & { toolName?: string } = {}): ApprovalRequest {
  return {
    toolCallId: 'c1',
    toolName: 'write_file',
    arguments: {},
    annotations: { readOnly: false, destructive: true, openWorld: true },
    command: undefined,
    sessionId: 's',
    workspace: '/work',
    ...overrides,
  };
}

const readOnlyTool = request({
  toolName: 'read_file',
  annotations: { readOnly: true, destructive: false, openWorld: false },
});
const workspaceTool = request({ annotations: { readOnly: false, destructive: true, openWorld: false } });
const openWorldTool = request({
  toolName: 'fetch',
  annotations: { readOnly: false, destructive: false, openWorld: true },
});

const decide = (mode: ApprovalMode, call: ApprovalRequest) => createApprovalPolicy({ mode }).decide(call);

describe('createApprovalPolicy', () => {
  it('read-only runs read-only tools and refuses the rest with a message the model can act on', () => {
    expect(decide('read-only', readOnlyTool)).toEqual({ action: 'allow' });
    const refused = decide('read-only', workspaceTool);
    expect(refused).toMatchObject({ action: 'deny' });
    expect(refused).toHaveProperty('message', expect.stringContaining('approval mode is read-only'));
    expect(refused).toHaveProperty('message', expect.stringContaining('write_file'));
  });

  it('ask runs read-only tools and asks about the others', () => {
    expect(decide('ask', readOnlyTool)).toEqual({ action: 'allow' });
    expect(decide('ask', workspaceTool)).toEqual({ action: 'ask', reason: 'write_file can change things' });
    expect(decide('ask', openWorldTool)).toMatchObject({ action: 'ask' });
  });

  it('auto runs what stays in the workspace and asks about what leaves it', () => {
    expect(decide('auto', readOnlyTool)).toEqual({ action: 'allow' });
    expect(decide('auto', workspaceTool)).toEqual({ action: 'allow' });
    expect(decide('auto', openWorldTool)).toEqual({ action: 'ask', reason: 'fetch reaches outside the workspace' });
  });

  it('yolo never asks', () => {
    expect(decide('yolo', openWorldTool)).toEqual({ action: 'allow' });
  });

  it('defaults to ask', () => {
    expect(createApprovalPolicy().decide(workspaceTool)).toMatchObject({ action: 'ask' });
  });

  it('lets the first matching rule override the mode, with * over tool names and commands', () => {
    const policy = createApprovalPolicy({
      mode: 'ask',
      rules: [
        { tool: 'run_command', command: 'rm *', action: 'deny' },
        { tool: 'run_command', command: 'npm test*', action: 'allow' },
        { tool: 'github__*', action: 'allow' },
        { tool: 'read_file', action: 'ask' },
      ],
    });
    const command = (text: string) => request({ toolName: 'run_command', command: text });
    expect(policy.decide(command('npm test'))).toEqual({ action: 'allow' });
    expect(policy.decide(command('npm test -- --watch'))).toEqual({ action: 'allow' });
    expect(policy.decide(command('rm -rf build'))).toMatchObject({
      action: 'deny',
      message: expect.stringContaining('`rm -rf build`'),
    });
    // Whole match: a command that only contains an allowed one is not allowed.
    expect(policy.decide(command('echo && npm test'))).toMatchObject({ action: 'ask' });
    expect(policy.decide(request({ toolName: 'github__create_issue' }))).toEqual({ action: 'allow' });
    expect(policy.decide(request({ toolName: 'githubXcreate' }))).toMatchObject({ action: 'ask' });
    // A rule can be stricter than the mode.
    expect(policy.decide(readOnlyTool)).toEqual({ action: 'ask', reason: 'a rule asks about read_file' });
  });

  it('passes over an allow rule whose command pattern would let a chained command through', () => {
    const policy = createApprovalPolicy({
      mode: 'auto',
      rules: [{ tool: 'run_command', command: 'npm test*', action: 'allow' }],
    });
    const command = (text: string) => request({ toolName: 'run_command', command: text });
    expect(policy.decide(command('npm test -- --watch'))).toEqual({ action: 'allow' });
    for (const chained of ['npm test && curl x | sh', 'npm test; rm -rf ~', 'npm test > /etc/x', 'npm test $(id)']) {
      expect(policy.decide(command(chained))).toMatchObject({ action: 'ask' });
    }
  });

  it('treats pattern characters other than * literally', () => {
    const policy = createApprovalPolicy({
      mode: 'ask',
      rules: [{ tool: 'run_command', command: 'ls (a+b)?.txt', action: 'allow' }],
    });
    expect(policy.decide(request({ toolName: 'run_command', command: 'ls (a+b)?.txt' }))).toEqual({ action: 'allow' });
    expect(policy.decide(request({ toolName: 'run_command', command: 'ls a.txt' }))).toMatchObject({ action: 'ask' });
  });

  it('a command rule does not match a call without a command', () => {
    const policy = createApprovalPolicy({ mode: 'ask', rules: [{ tool: '*', command: '*', action: 'allow' }] });
    expect(policy.decide(workspaceTool)).toMatchObject({ action: 'ask' });
  });

  it('rejects a bad mode or rule, saying what to use', () => {
    expect(() => createApprovalPolicy({ mode: 'careful' as ApprovalMode })).toThrow(
      'Unknown approval mode "careful": use one of read-only, ask, auto, yolo.',
    );
    expect(() => createApprovalPolicy({ rules: [{ tool: 'x', action: 'maybe' as 'allow' }] })).toThrow(
      'Approval rule 1 (x) has action "maybe": use allow, ask or deny.',
    );
    expect(() => createApprovalPolicy({ rules: [{ tool: '', action: 'allow' }] })).toThrow(
      'Approval rule 1 needs a `tool` name or pattern.',
    );
  });
});
