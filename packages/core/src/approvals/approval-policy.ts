import type { SamplingRequest, ToolAnnotations } from '@agentloop/tools';

/**
 * What a request is about: a tool call, or a running tool's request for a completion of the agent's
 * model (an MCP server's sampling), which spends the user's tokens and is asked about on its own.
 */
export type ApprovalKind = 'tool-call' | 'sampling';

/** A sampling request as shown for approval: what the tool asks the model. */
export type SamplingApproval = Omit<SamplingRequest, 'signal'>;

/**
 * A tool call waiting for the policy's decision, or (`kind: 'sampling'`) a sampling request made during
 * the call, with the call's id and tool name.
 */
export interface ApprovalRequest {
  /** Absent for a tool call. */
  readonly kind?: ApprovalKind;
  /** What a sampling request asks the model; present when `kind` is `sampling`. */
  readonly sampling?: SamplingApproval;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The call's arguments as the model sent them (validated later, by the tool's own schema). */
  readonly arguments: unknown;
  /**
   * What the tool says it does, with the cautious answer for each field it leaves out (not read-only,
   * destructive, open-world), as in MCP's tool annotations.
   */
  readonly annotations: Required<ToolAnnotations>;
  /** The `command` argument when the call has a text one (`run_command`); rules match patterns on it. */
  readonly command: string | undefined;
  readonly sessionId: string;
  readonly workspace: string;
}

/**
 * What a policy decides about a call: run it, refuse it (the model sees `message` as the call's error
 * result), or ask the user, saying why (`reason`).
 */
export type ApprovalDecision =
  | { readonly action: 'allow' }
  | { readonly action: 'deny'; readonly message: string }
  | { readonly action: 'ask'; readonly reason: string };

/**
 * Decides, before each tool call runs, whether it may (loop-control tools are never asked about). The
 * default is `createApprovalPolicy`; an app or a plugin can register its own under
 * `TOKENS.ApprovalPolicy`. Policies read what tools declare (`annotations`), never their names alone.
 */
export interface ApprovalPolicy {
  decide(request: ApprovalRequest): ApprovalDecision | PromiseLike<ApprovalDecision>;
}

/**
 * The user's answer to an `approval-requested` event, given with `agent.answerApproval(requestId, answer)`:
 * run the call once; run it and, for the rest of the session, every call of this tool (or, with
 * `commandPrefix`, every call of it whose command starts with that text and holds no `;`, `&`, `|`, line
 * break, `` ` ``, `$(`, `<` or `>`); or refuse it, with a message the model sees.
 */
export type ApprovalAnswer =
  | { readonly decision: 'allow-once' }
  | { readonly decision: 'allow-session'; readonly commandPrefix?: string }
  | { readonly decision: 'deny'; readonly message?: string };

/** The answers an executor can offer for a request. */
export type ApprovalChoice = ApprovalAnswer['decision'];
