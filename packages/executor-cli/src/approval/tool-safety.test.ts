import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { ToolSafety } from './tool-safety.js';

const missing = async () => ({ available: false as const, reason: 'bubblewrap (bwrap) is not installed' });
const present = async () => ({ available: true as const, kind: 'bubblewrap' as const, version: 'bubblewrap 0.8.0' });

function safety(
  mode: 'read-only' | 'ask' | 'auto' | 'yolo' = 'auto',
  sandbox: 'workspace-write' | 'off' = 'workspace-write',
) {
  return new ToolSafety({
    approval: { mode, rules: [{ tool: 'run_command', command: 'npm test*', action: 'allow' }] },
    sandbox: { mode: sandbox, network: false },
  });
}

describe('ToolSafety', () => {
  it('keeps the sandbox and the rules as configured when the sandbox can run', async () => {
    const tools = safety();
    expect(await tools.probe(present)).toMatchObject({ available: true });
    expect(tools.commandSandbox()).toEqual({ mode: 'workspace-write', network: false });
    expect(tools.policy()).toEqual({
      mode: 'auto',
      rules: [{ tool: 'run_command', command: 'npm test*', action: 'allow' }],
    });
    expect(tools.notice()).toBeUndefined();
    expect(tools.describeSandbox()).toBe(
      'Commands run in a sandbox: the workspace writable, the rest read-only, without network.',
    );
  });

  it('runs commands unsandboxed where the sandbox is missing, asking about each before the rules', async () => {
    const tools = safety();
    await tools.probe(missing);
    expect(tools.commandSandbox()).toEqual({ mode: 'off', network: false });
    expect(tools.policy().rules?.[0]).toEqual({ tool: 'run_command', action: 'ask' });
    expect(tools.notice()).toBe(
      'No sandbox: bubblewrap (bwrap) is not installed; run_command asks before every command, whatever the rules allow, and it runs without the sandbox.',
    );
    expect(tools.commandConfinement()).toEqual({
      unsandboxed: true,
      text: 'without a sandbox (none can run here): with your rights, files and network',
    });
  });

  it('says in agentloop run that commands are refused, though a rule allows them, and what would run them', async () => {
    const tools = safety();
    await tools.probe(missing);
    const remedy =
      'To run them: install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap); or --sandbox off (or mode = "off" under [sandbox]), so that your allow rules decide, and the commands they allow run with your rights; or --approval yolo, which runs every command with your rights.';
    expect(tools.notice('run')).toBe(
      `No sandbox: bubblewrap (bwrap) is not installed; every command needs approval, whatever the rules allow, and agentloop run asks no one, so run_command refuses them all. ${remedy}`,
    );
    expect(tools.refusalInRun('run_command')).toBe(
      `⊘ run_command was refused: without a sandbox every command needs approval, whatever the rules allow, and agentloop run asks no one. ${remedy}`,
    );
    expect(tools.refusalInRun('edit_file')).toBeUndefined();
    const withSandbox = safety();
    await withSandbox.probe(present);
    expect(withSandbox.refusalInRun('run_command')).toBeUndefined();
    expect(withSandbox.commandConfinement()).toEqual({
      unsandboxed: false,
      text: 'in the sandbox: only the working directory writable, no network',
    });
    expect(safety('auto', 'off').commandConfinement()).toEqual({
      unsandboxed: true,
      text: 'without a sandbox (sandbox = off): with your rights, files and network',
    });
  });

  it('refuses commands in read-only and runs them in yolo where the sandbox is missing, saying so', async () => {
    const tools = safety('read-only');
    await tools.probe(missing);
    expect(tools.policy().rules?.[0]).toEqual({ tool: 'run_command', action: 'deny' });
    expect(tools.policy('yolo').rules).toEqual([{ tool: 'run_command', command: 'npm test*', action: 'allow' }]);
    tools.mode = 'yolo';
    expect(tools.notice()).toBe(
      'No sandbox: bubblewrap (bwrap) is not installed; run_command runs commands without it, and without asking (yolo).',
    );
    tools.mode = 'read-only';
    expect(tools.notice('run')).toBe(
      'No sandbox: bubblewrap (bwrap) is not installed; run_command refuses every command, which would run without it (read-only).',
    );
  });

  it('does not check a sandbox configured off, and adds no rule for it', async () => {
    const tools = safety('auto', 'off');
    let checked = false;
    expect(
      await tools.probe(async () => {
        checked = true;
        return present();
      }),
    ).toBeUndefined();
    expect(checked).toBe(false);
    expect(tools.commandSandbox().mode).toBe('off');
    expect(tools.policy().rules).toHaveLength(1);
    expect(tools.notice()).toBeUndefined();
  });

  it('hands run_command the environment variables the configuration adds, with or without the sandbox', async () => {
    const settings = {
      approval: { mode: 'auto' as const, rules: [] },
      sandbox: { mode: 'workspace-write' as const, network: false, passEnvironment: ['MY_APP_*'] },
    };
    const withSandbox = new ToolSafety(settings);
    await withSandbox.probe(present);
    expect(withSandbox.commandSandbox()).toEqual({
      mode: 'workspace-write',
      network: false,
      passEnvironment: ['MY_APP_*'],
    });
    const withoutSandbox = new ToolSafety(settings);
    await withoutSandbox.probe(missing);
    expect(withoutSandbox.commandSandbox()).toEqual({ mode: 'off', network: false, passEnvironment: ['MY_APP_*'] });
  });

  it('checks the sandbox once', async () => {
    const tools = safety();
    let checks = 0;
    const check = async () => {
      checks += 1;
      return present();
    };
    await Promise.all([tools.probe(check), tools.probe(check)]);
    await tools.probe(check);
    expect(checks).toBe(1);
  });

  it('sets a mode on the agent with the fallback rule, from the next call', async () => {
    const tools = safety('auto');
    await tools.probe(missing);
    const agent = new DefaultAgent(new ScriptedProvider([]), {});
    const policies: unknown[] = [];
    const setApproval = agent.setApproval.bind(agent);
    agent.setApproval = (approval) => {
      policies.push(approval);
      return setApproval(approval);
    };
    tools.setMode(agent, 'ask');
    expect(tools.mode).toBe('ask');
    expect(policies).toEqual([
      {
        mode: 'ask',
        rules: [
          { tool: 'run_command', action: 'ask' },
          { tool: 'run_command', command: 'npm test*', action: 'allow' },
        ],
      },
    ]);
  });

  it('tells the model the approval mode and the sandbox', async () => {
    const tools = safety('ask');
    await tools.probe(present);
    expect(tools.environment('/work')).toEqual({
      cwd: '/work',
      approvalPolicy: 'ask',
      sandboxMode: 'workspace-write',
      networkAccess: 'restricted',
      writableRoots: ['/work'],
    });
  });
});
