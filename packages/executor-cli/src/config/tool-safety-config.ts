import { dirname } from 'node:path';
import type { ApprovalMode, ApprovalRule } from '@agentloop/core';
import type { SandboxMode } from '@agentloop/workspace-tools';
import { ConfigError } from './config-error.js';
import type { ConfigFile } from './config-schema.js';
import type { ApprovalTable, SandboxTable } from './tool-safety-schema.js';

// Kept here rather than imported from the schema, which loads zod: this module runs before the prompt.
const APPROVAL_ORDER = ['read-only', 'ask', 'auto', 'yolo'];
const SANDBOX_ORDER = ['read-only', 'workspace-write', 'off'];

/**
 * The `[approval]` and `[sandbox]` tables of both files, merged: the project's mode wins; the user's `deny`
 * rules come first, so no project rule can turn them into an ask, then the project's rules, then the
 * user's others (the first rule that matches decides); the sandbox merges key by key.
 */
export function mergeToolSafety(
  user: ConfigFile | undefined,
  project: ConfigFile | undefined,
): { approval?: ApprovalTable; sandbox?: SandboxTable } {
  const merged: { approval?: ApprovalTable; sandbox?: SandboxTable } = {};
  const mode = project?.approval?.mode ?? user?.approval?.mode;
  const userRules = user?.approval?.rules ?? [];
  const rules = [
    ...userRules.filter((rule) => rule.action === 'deny'),
    ...(project?.approval?.rules ?? []),
    ...userRules.filter((rule) => rule.action !== 'deny'),
  ];
  if (mode !== undefined || rules.length > 0) {
    merged.approval = { ...(mode === undefined ? {} : { mode }), ...(rules.length > 0 ? { rules } : {}) };
  }
  const sandbox = { ...user?.sandbox, ...project?.sandbox };
  if (Object.keys(sandbox).length > 0) merged.sandbox = sandbox;
  return merged;
}

/**
 * A project file comes with the code the user is looking at: unless the user trusts the project, it may
 * make approvals and the sandbox stricter than the user's file (or the defaults) but never looser — no
 * more permissive approval mode, no `allow` rule, no weaker sandbox, no network, no more environment
 * variables for commands. Throws a ConfigError naming the key and how to trust the project.
 */
export function checkProjectToolSafety(
  project: ConfigFile,
  user: ConfigFile | undefined,
  file: string,
  trusted: boolean,
): void {
  if (trusted) return;
  const refuse = (key: string, what: string) => {
    throw new ConfigError({
      file,
      key,
      problem: `${what}, which a project file may do only when you trust the project: add trusted_projects = [${JSON.stringify(dirname(dirname(file)))}] to the user configuration (\`agentloop config path\` shows where it is), or set it there`,
    });
  };
  const userMode = user?.approval?.mode ?? 'auto';
  const mode = project.approval?.mode;
  if (mode !== undefined && APPROVAL_ORDER.indexOf(mode) > APPROVAL_ORDER.indexOf(userMode)) {
    refuse('approval.mode', `asks less than your "${userMode}" mode`);
  }
  const allowing = project.approval?.rules?.findIndex((rule) => rule.action === 'allow') ?? -1;
  if (allowing !== -1) refuse(`approval.rules.${allowing}.action`, 'allows calls without asking');
  const userSandbox = user?.sandbox?.mode ?? 'workspace-write';
  const sandbox = project.sandbox?.mode;
  if (sandbox !== undefined && SANDBOX_ORDER.indexOf(sandbox) > SANDBOX_ORDER.indexOf(userSandbox)) {
    refuse('sandbox.mode', `confines commands less than your "${userSandbox}" sandbox`);
  }
  if (project.sandbox?.network === true && user?.sandbox?.network !== true) {
    refuse('sandbox.network', 'lets commands use the network');
  }
  if ((project.sandbox?.pass_environment?.length ?? 0) > 0) {
    refuse('sandbox.pass_environment', 'gives commands more of your environment variables');
  }
}

/** When the agent asks before a tool call, and how run_command confines commands: a session's settings. */
export interface ToolSafetySettings {
  /** The approval mode (flag, else configuration, else `auto`) and the configured rules, project's first. */
  approval: { mode: ApprovalMode; rules: ApprovalRule[] };
  /**
   * The sandbox mode (flag, else configuration, else `workspace-write`), whether commands get the network,
   * and the environment variables they get beside the ones they need (`pass_environment`).
   */
  sandbox: { mode: SandboxMode; network: boolean; passEnvironment?: readonly string[] };
}

/** The approval and sandbox settings of a session: the flags win over the merged configuration. */
export function resolveToolSafety(
  flags: { approval?: ApprovalMode; sandbox?: SandboxMode },
  config: Pick<ConfigFile, 'approval' | 'sandbox'>,
): ToolSafetySettings {
  return {
    approval: {
      mode: flags.approval ?? config.approval?.mode ?? 'auto',
      rules: (config.approval?.rules ?? []).map(({ tool, action, command }) => ({
        tool,
        action,
        ...(command === undefined ? {} : { command }),
      })),
    },
    sandbox: {
      mode: flags.sandbox ?? config.sandbox?.mode ?? 'workspace-write',
      network: config.sandbox?.network ?? false,
      ...(config.sandbox?.pass_environment ? { passEnvironment: config.sandbox.pass_environment } : {}),
    },
  };
}
