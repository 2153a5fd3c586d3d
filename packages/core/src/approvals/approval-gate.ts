import { AgentloopError, describeThrown } from '@agentloop/spec';
import type { RegisteredTool, SamplingRequest, ToolAnnotations } from '@agentloop/tools';
import { AgentUsageError } from '../errors/index.js';
import type { AgentEventBus } from '../events/index.js';
import { CANCELLED_RESULT } from '../loop/cancelled-result.js';
import type {
  ApprovalAnswer,
  ApprovalChoice,
  ApprovalKind,
  ApprovalPolicy,
  ApprovalRequest,
} from './approval-policy.js';
import { startsWithCommand } from './chained-command.js';

/** What a sampling request does: it changes nothing, but what it sends leaves the machine. */
const SAMPLING_ANNOTATIONS: Required<ToolAnnotations> = { readOnly: false, destructive: false, openWorld: true };

/** The answers every request offers. */
const CHOICES: readonly ApprovalChoice[] = ['allow-once', 'allow-session', 'deny'];

/** What the gate says about one call: run it, or answer it with this failure. */
export type GateVerdict =
  | { readonly run: true }
  | { readonly run: false; readonly code: 'denied' | 'cancelled'; readonly message: string };

const RUN: GateVerdict = { run: true };

/** The call the gate is asked about. */
export interface GatedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly arguments: unknown;
}

/** Where a call is asked about: the run's events, signal and ids. */
export interface GateContext {
  readonly events: AgentEventBus;
  readonly iteration: number;
  readonly signal: AbortSignal;
  readonly sessionId: string;
  readonly workspace: string;
}

/** A grant given with `allow-session`: this tool, or its calls whose command starts with `commandPrefix`. */
interface SessionGrant {
  readonly kind: ApprovalKind;
  readonly toolName: string;
  readonly commandPrefix: string | undefined;
}

interface Pending {
  readonly request: ApprovalRequest;
  settle(answer: ApprovalAnswer): void;
}

/**
 * Puts an agent's ApprovalPolicy before its tool calls: a call the policy allows runs, one it denies is
 * answered with the policy's message, and one it asks about emits `approval-requested` and waits for
 * `answer` (or the run's cancel). Grants given with `allow-session` last as long as the agent. When
 * nothing listens to `approval-requested`, a call that needs asking is refused and the run ends with an
 * `approval_unanswered` error, so an app without an executor learns it at once, never by a silent allow.
 */
export class ApprovalGate {
  policy: ApprovalPolicy;
  readonly #grants: SessionGrant[] = [];
  readonly #pending = new Map<string, Pending>();
  #nextId = 1;
  /** The error that ends the run: a call needed asking and nothing could answer. */
  #unanswered: AgentloopError | undefined;

  constructor(policy: ApprovalPolicy) {
    this.policy = policy;
  }

  /** Decides about one call, asking the user when the policy says so. Never throws. */
  check(context: GateContext, call: GatedCall, tool: RegisteredTool): Promise<GateVerdict> {
    return this.#decide(context, approvalRequest(context, call, tool.tool.annotations));
  }

  /**
   * Decides about a sampling request a running call makes (`kind: 'sampling'`, with fixed annotations:
   * it changes nothing, but leaves the machine), asking the user when the policy says so; an
   * `allow-session` answer covers that tool's sampling requests, not its calls. Never throws.
   */
  checkSampling(
    context: GateContext,
    call: Pick<GatedCall, 'toolCallId' | 'toolName'>,
    sampling: SamplingRequest,
  ): Promise<GateVerdict> {
    const { signal: _signal, ...shown } = sampling;
    return this.#decide(context, {
      kind: 'sampling',
      sampling: shown,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      arguments: shown,
      annotations: SAMPLING_ANNOTATIONS,
      command: undefined,
      sessionId: context.sessionId,
      workspace: context.workspace,
    });
  }

  async #decide(context: GateContext, request: ApprovalRequest): Promise<GateVerdict> {
    let decision: Awaited<ReturnType<ApprovalPolicy['decide']>>;
    try {
      decision = await this.policy.decide(request);
    } catch (error) {
      return denied(
        `Not run: the approval policy failed (${describeThrown(error)}), so the call could not be approved.`,
      );
    }
    switch (decision.action) {
      case 'allow':
        return RUN;
      case 'deny':
        return denied(decision.message);
      case 'ask':
        return this.#granted(request) ? RUN : this.#ask(context, request, decision.reason);
    }
  }

  /**
   * Answers a waiting `approval-requested`. Throws an AgentUsageError (`unknown_approval`) for an id that
   * is not waiting: never asked, already answered, or its run ended.
   */
  answer(requestId: string, answer: ApprovalAnswer): void {
    const pending = this.#pending.get(requestId);
    if (!pending) {
      throw new AgentUsageError(
        `No approval request "${requestId}" is waiting: it was answered already, or its run ended.`,
        'unknown_approval',
      );
    }
    pending.settle(answer);
  }

  /** Takes the error that must end the run, if a call could not be asked about. */
  takeUnanswered(): AgentloopError | undefined {
    const error = this.#unanswered;
    this.#unanswered = undefined;
    return error;
  }

  #granted(request: ApprovalRequest): boolean {
    return this.#grants.some(
      (grant) =>
        grant.kind === (request.kind ?? 'tool-call') &&
        grant.toolName === request.toolName &&
        (grant.commandPrefix === undefined ||
          (request.command !== undefined && startsWithCommand(request.command, grant.commandPrefix))),
    );
  }

  #ask(context: GateContext, request: ApprovalRequest, reason: string): Promise<GateVerdict> {
    const { events, iteration, signal } = context;
    if (events.listenerCount('approval-requested') === 0) {
      this.#unanswered ??= new AgentloopError(
        `${request.toolName} needs approval (${reason}), but nothing answers approval requests. Listen for ` +
          "'approval-requested' and answer with agent.answerApproval(), or choose an approval mode or rule " +
          'that allows this call.',
        { code: 'approval_unanswered' },
      );
      return Promise.resolve(
        denied('Not run: it needs the user’s approval and no one can give it here. Tell the user what you need.'),
      );
    }
    const requestId = `approval-${this.#nextId++}`;
    const { toolCallId, toolName } = request;
    return new Promise<GateVerdict>((resolve) => {
      let done = false;
      const finish = (verdict: GateVerdict, decision: ApprovalChoice | 'cancelled') => {
        if (done) return;
        done = true;
        this.#pending.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        events.emit({ type: 'approval-resolved', iteration, requestId, toolCallId, name: toolName, decision });
        resolve(verdict);
      };
      const onAbort = () => finish({ run: false, code: 'cancelled', message: CANCELLED_RESULT }, 'cancelled');
      this.#pending.set(requestId, {
        request,
        // An answer given inside an `approval-requested` listener takes effect once every listener has
        // seen the request, so no one sees it resolved before it was asked.
        settle: (answer) => {
          this.#pending.delete(requestId);
          queueMicrotask(() => finish(this.#apply(request, answer), answer.decision));
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      events.emit({
        type: 'approval-requested',
        iteration,
        requestId,
        toolCallId,
        name: toolName,
        arguments: request.arguments,
        ...(request.command === undefined ? {} : { command: request.command }),
        annotations: request.annotations,
        reason,
        choices: CHOICES,
        ...(request.kind === 'sampling' && request.sampling ? { kind: 'sampling', sampling: request.sampling } : {}),
      });
      if (signal.aborted) onAbort();
    });
  }

  #apply(request: ApprovalRequest, answer: ApprovalAnswer): GateVerdict {
    switch (answer.decision) {
      case 'allow-once':
        return RUN;
      case 'allow-session':
        this.#grants.push({
          kind: request.kind ?? 'tool-call',
          toolName: request.toolName,
          commandPrefix: answer.commandPrefix,
        });
        return RUN;
      case 'deny':
        return denied(
          answer.message === undefined || answer.message.trim() === ''
            ? 'Not run: the user declined this call. Do not try it again; ask the user or do the task another way.'
            : `Not run: the user declined this call and said: ${answer.message}`,
        );
    }
  }
}

function approvalRequest(
  context: GateContext,
  call: GatedCall,
  annotations: ToolAnnotations | undefined,
): ApprovalRequest {
  const args = call.arguments;
  const command =
    typeof args === 'object' && args !== null && typeof (args as { command?: unknown }).command === 'string'
      ? (args as { command: string }).command
      : undefined;
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    arguments: args,
    annotations: {
      readOnly: annotations?.readOnly ?? false,
      destructive: annotations?.destructive ?? true,
      openWorld: annotations?.openWorld ?? true,
    },
    command,
    sessionId: context.sessionId,
    workspace: context.workspace,
  };
}

function denied(message: string): GateVerdict {
  return { run: false, code: 'denied', message };
}
