import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest } from './approval-policy.js';
import { chainsCommands } from './chained-command.js';

/**
 * The default policy's modes, as Codex users know them: `read-only` runs only read-only tools and refuses
 * the others; `ask` runs read-only tools and asks about the others; `auto` runs everything that stays in
 * the workspace (tools not marked open-world) and asks about what leaves it; `yolo` never asks.
 */
export type ApprovalMode = 'read-only' | 'ask' | 'auto' | 'yolo';

/** The modes, in order from the most to the least cautious. */
export const APPROVAL_MODES: readonly ApprovalMode[] = ['read-only', 'ask', 'auto', 'yolo'];

/** What a rule does with the calls it matches. */
export type ApprovalRuleAction = 'allow' | 'ask' | 'deny';

/**
 * A rule that overrides the mode for the calls it matches. `tool` is a tool name, where `*` matches any
 * run of characters (`github__*` for every tool of an MCP server; `sampling:github__*` for the sampling
 * requests those tools make); `command`, when given, is a pattern
 * the call's `command` argument must match whole (`npm test*`, `git status`), so a rule can allow one
 * command of `run_command` and ask about the rest. The first rule that matches wins.
 */
export interface ApprovalRule {
  readonly tool: string;
  readonly action: ApprovalRuleAction;
  readonly command?: string;
}

/** Options of createApprovalPolicy. */
export interface ApprovalPolicyOptions {
  /** Default `ask`. */
  readonly mode?: ApprovalMode;
  readonly rules?: readonly ApprovalRule[];
}

/** True when `value` is one of the modes. */
export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value);
}

/**
 * The default ApprovalPolicy: the first rule that matches the call decides; otherwise the mode does,
 * from what the tool declares. A tool that declares nothing is treated as one that changes things and
 * reaches outside the workspace, so it runs without asking only in `yolo`.
 */
export function createApprovalPolicy(options: ApprovalPolicyOptions = {}): ApprovalPolicy {
  const mode = options.mode ?? 'ask';
  if (!isApprovalMode(mode)) {
    throw new TypeError(`Unknown approval mode ${JSON.stringify(mode)}: use one of ${APPROVAL_MODES.join(', ')}.`);
  }
  const rules = (options.rules ?? []).map(compileRule);
  return {
    decide(request) {
      for (const rule of rules) {
        if (rule.matches(request) && !allowsChain(rule, request)) return ruleDecision(rule, request);
      }
      return modeDecision(mode, request);
    },
  };
}

interface CompiledRule {
  readonly rule: ApprovalRule;
  matches(request: ApprovalRequest): boolean;
}

function compileRule(rule: ApprovalRule, index: number): CompiledRule {
  if (typeof rule?.tool !== 'string' || rule.tool === '') {
    throw new TypeError(`Approval rule ${index + 1} needs a \`tool\` name or pattern.`);
  }
  if (rule.action !== 'allow' && rule.action !== 'ask' && rule.action !== 'deny') {
    throw new TypeError(
      `Approval rule ${index + 1} (${rule.tool}) has action ${JSON.stringify(rule.action)}: use allow, ask or deny.`,
    );
  }
  const tool = wholeMatch(rule.tool);
  const command = rule.command === undefined ? undefined : wholeMatch(rule.command);
  return {
    rule,
    matches: (request) =>
      tool.test(ruleName(request)) &&
      (command === undefined || (request.command !== undefined && command.test(request.command))),
  };
}

/**
 * The name a rule's `tool` pattern is matched against: the tool's, or `sampling:` and the tool's for a
 * sampling request it makes, so that a rule that allows a tool's calls does not also let it use the model.
 */
function ruleName(request: ApprovalRequest): string {
  return request.kind === 'sampling' ? `sampling:${request.toolName}` : request.toolName;
}

/** A pattern in which `*` matches any run of characters (line breaks too) and everything else is literal. */
function wholeMatch(pattern: string): RegExp {
  const literal = pattern.split('*').map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'));
  return new RegExp(`^${literal.join('[\\s\\S]*')}$`);
}

/**
 * True when an `allow` rule's command pattern would let a chained command through (`npm test*` matching
 * `npm test && curl … | sh`): that rule is passed over, and the later rules or the mode decide.
 */
function allowsChain({ rule }: CompiledRule, request: ApprovalRequest): boolean {
  return (
    rule.action === 'allow' &&
    rule.command !== undefined &&
    request.command !== undefined &&
    chainsCommands(request.command)
  );
}

function ruleDecision({ rule }: CompiledRule, request: ApprovalRequest): ApprovalDecision {
  const what = rule.command === undefined ? rule.tool : `${rule.tool} ${rule.command}`;
  switch (rule.action) {
    case 'allow':
      return { action: 'allow' };
    case 'ask':
      return { action: 'ask', reason: `a rule asks about ${what}` };
    case 'deny':
      return {
        action: 'deny',
        message: `Not run: the user's approval rules do not allow ${describeCall(request)}. Do not try it again; do the task another way or tell the user what you need.`,
      };
  }
}

function modeDecision(mode: ApprovalMode, request: ApprovalRequest): ApprovalDecision {
  if (request.kind === 'sampling') return samplingDecision(mode, request);
  const { readOnly, openWorld } = request.annotations;
  if (mode === 'yolo' || readOnly) return { action: 'allow' };
  switch (mode) {
    case 'read-only':
      return {
        action: 'deny',
        message: `Not run: the approval mode is read-only, and ${describeCall(request)} can change things. Use read-only tools, or tell the user what you would change and that they can switch the mode.`,
      };
    case 'ask':
      return { action: 'ask', reason: `${request.toolName} can change things` };
    case 'auto':
      return openWorld
        ? { action: 'ask', reason: `${request.toolName} reaches outside the workspace` }
        : { action: 'allow' };
  }
}

/**
 * A sampling request changes nothing, but it sends text the user has not seen to the model and spends
 * their tokens: every mode but `yolo` asks, `read-only` refuses.
 */
function samplingDecision(mode: ApprovalMode, request: ApprovalRequest): ApprovalDecision {
  const asker = request.sampling?.server ? `MCP server ${request.sampling.server}` : request.toolName;
  switch (mode) {
    case 'yolo':
      return { action: 'allow' };
    case 'read-only':
      return {
        action: 'deny',
        message: `The approval mode is read-only, so ${asker} may not use the model (sampling).`,
      };
    default:
      return { action: 'ask', reason: `${asker} asks the model for a completion` };
  }
}

function describeCall(request: ApprovalRequest): string {
  if (request.kind === 'sampling') return `a sampling request of ${request.toolName}`;
  return request.command === undefined ? `the tool ${request.toolName}` : `the command \`${request.command}\``;
}
