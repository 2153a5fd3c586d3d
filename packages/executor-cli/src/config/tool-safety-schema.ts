import type { ApprovalMode, ApprovalRuleAction } from '@agentloop/core';
import type { SandboxMode } from '@agentloop/workspace-tools';
import { z } from 'zod';

// The lists are written out, not imported: this schema loads before the prompt, and core and the
// workspace tools load after it. `satisfies` keeps them in step with the packages' types.

/** The approval modes, from the most to the least cautious (core's APPROVAL_MODES). */
export const APPROVAL_MODE_NAMES = ['read-only', 'ask', 'auto', 'yolo'] as const satisfies readonly ApprovalMode[];

/** The sandbox modes of run_command, from the most to the least confined. */
export const SANDBOX_MODE_NAMES = ['read-only', 'workspace-write', 'off'] as const satisfies readonly SandboxMode[];

const RULE_ACTIONS = ['allow', 'ask', 'deny'] as const satisfies readonly ApprovalRuleAction[];

const pattern = z.string().trim().min(1, 'must not be empty');

/** One `[[approval.rules]]` entry: what to do with the calls of a tool, or with some of its commands. */
export const approvalRuleSchema = z.strictObject({
  /** The tool's name; `*` matches any characters (`github__*`). */
  tool: pattern,
  /** What to do with the matching calls. */
  action: z.enum(RULE_ACTIONS, { error: 'must be "allow", "ask" or "deny"' }),
  /** A pattern the call's command must match whole, `*` for any characters (`npm test*`). */
  command: pattern.optional(),
});

/** The `[approval]` table: when the agent asks before a tool call runs. */
export const approvalSchema = z.strictObject({
  /** read-only, ask, auto (the default) or yolo. */
  mode: z.enum(APPROVAL_MODE_NAMES, { error: 'must be "read-only", "ask", "auto" or "yolo"' }).optional(),
  /** Rules that override the mode; the first that matches a call decides. */
  rules: z.array(approvalRuleSchema).optional(),
});

/** The `[sandbox]` table: how run_command confines commands. */
export const sandboxSchema = z.strictObject({
  /** workspace-write (the default), read-only or off. */
  mode: z.enum(SANDBOX_MODE_NAMES, { error: 'must be "workspace-write", "read-only" or "off"' }).optional(),
  /** Whether sandboxed commands may use the network (default false). */
  network: z.boolean().optional(),
  /** Environment variables commands get beside the ones they need: names, or prefixes ending in `*`. */
  pass_environment: z
    .array(
      z
        .string()
        .regex(
          /^[A-Za-z_][A-Za-z0-9_]*\*?$/,
          'must be an environment variable\'s name such as "JAVA_HOME", or a prefix ending in * such as "MY_APP_*"',
        ),
    )
    .optional(),
});

/** The `[approval]` table as written. */
export type ApprovalTable = z.infer<typeof approvalSchema>;
/** The `[sandbox]` table as written. */
export type SandboxTable = z.infer<typeof sandboxSchema>;
