import { AgentloopError, describeThrown } from '@agentloop/spec';
import type { RegisteredTool, SamplingRequest, ToolAnnotations } from '@agentloop/tools';
import { AgentUsageError } from '../errors/index.js';
import type { AgentEventSink } from '../events/index.js';
import type { Journal } from '../journal/journal.js';
import { runJournaled } from '../journal/journaled-step.js';
import { RunRequestIds } from '../journal/run-request-ids.js';
import { CANCELLED_RESULT } from '../loop/cancelled-result.js';
import type {
  ApprovalAnswer,
  ApprovalChoice,
  ApprovalDecision,
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

/**
 * What the gate says about a sampling request: as about a call, or `unsupported` when it would have to
 * ask the user inside a durable tool call, where a run cannot wait for an answer.
 */
export type SamplingVerdict =
  | GateVerdict
  | { readonly run: false; readonly code: 'unsupported'; readonly message: string };

/** The call the gate is asked about. */
export interface GatedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly arguments: unknown;
}

/** Where a call is asked about: the run's events, signal, ids and journal. */
export interface GateContext {
  readonly events: AgentEventSink;
  readonly iteration: number;
  readonly signal: AbortSignal;
  readonly sessionId: string;
  /** The run's id (a journal record): the requests' ids are made from it. */
  readonly runId: string;
  readonly workspace: string;
  /** Records the policy's decision and the user's answer, so that a replayed run asks nothing again. */
  readonly journal: Journal;
}

/**
 * A grant given with `allow-session`: calls of this tool (or, with `kind: 'sampling'`, its sampling
 * requests), or only those whose command starts with `commandPrefix`, run without asking for the rest of
 * the session.
 */
export interface ApprovalGrant {
  /** What the grant covers: the tool's calls (the default) or the sampling requests it makes. */
  readonly kind?: ApprovalKind;
  readonly toolName: string;
  readonly commandPrefix?: string;
}

/** A request waiting for its answer, and the journal of the run that waits. */
interface Pending {
  readonly request: ApprovalRequest;
  readonly journal: Journal;
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
  readonly #grants: ApprovalGrant[] = [];
  readonly #pending = new Map<string, Pending>();
  readonly #requestIds = new RunRequestIds('approval');
  /** The error that ends the run: a call needed asking and nothing could answer. */
  #unanswered: AgentloopError | undefined;

  constructor(policy: ApprovalPolicy) {
    this.policy = policy;
  }

  /**
   * Decides about one call, asking the user when the policy says so. The policy's decision is a journal
   * step and the user's answer a journal wait, so that a replayed run decides the same way without asking
   * again, and the grants of the answers come back with them. Rejects only when the journal itself fails.
   */
  check(context: GateContext, call: GatedCall, tool: RegisteredTool): Promise<GateVerdict> {
    const request = approvalRequest(context, call, tool.tool.annotations);
    return this.#decideJournaled(context, request, `approval:${context.iteration}:${call.toolCallId}`);
  }

  /**
   * Decides about a sampling request a running call makes (`kind: 'sampling'`, with fixed annotations:
   * it changes nothing, but leaves the machine), asking the user when the policy says so; an
   * `allow-session` answer covers that tool's sampling requests, not its calls.
   *
   * The request is made inside the call's journal step, where a journal allows no operation of its own
   * (Restate's `ctx.run` can neither nest another nor wait on an awakeable). So the decision is no step of
   * its own: it is part of the call's effect, and a replayed call, restored from its record, asks nothing
   * again. With the default journal (any journal not marked `durable`) the user is asked in process. A
   * durable journal cannot wait for an answer inside a step: a request the policy would ask about, and no
   * grant covers, gets the verdict `unsupported`, with a message that says what to do. Never rejects.
   */
  async checkSampling(
    context: GateContext,
    call: Pick<GatedCall, 'toolCallId' | 'toolName'>,
    sampling: SamplingRequest,
  ): Promise<SamplingVerdict> {
    const { signal: _signal, ...shown } = sampling;
    const request: ApprovalRequest = {
      kind: 'sampling',
      sampling: shown,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      arguments: shown,
      annotations: SAMPLING_ANNOTATIONS,
      command: undefined,
      sessionId: context.sessionId,
      workspace: context.workspace,
    };
    const decision = await this.#decide(request);
    if (decision.action !== 'ask' || this.#granted(request)) return this.#verdict(context, request, decision);
    // A marker, not a class check: an app's wrapper around the default journal, or a second copy of
    // core, records nothing and can wait here as well.
    if (context.journal.durable === true) {
      return {
        run: false,
        code: 'unsupported',
        message:
          `${call.toolName} asked for a model completion (sampling) that needs the user's approval (${decision.reason}), ` +
          'but it was made inside a durable tool call, which is one journal step and cannot wait for an answer. ' +
          `Allow it without asking with an approval rule { tool: 'sampling:${call.toolName}', action: 'allow' } ` +
          '(or a grant of kind sampling), or run the agent without a durable journal.',
      };
    }
    return this.#ask(context, request, decision.reason);
  }

  /** The policy's decision as a journal step, then the verdict: at once, from a grant, or by asking. */
  async #decideJournaled(context: GateContext, request: ApprovalRequest, name: string): Promise<GateVerdict> {
    const decision = await runJournaled(context.journal, {
      name,
      run: () => this.#decide(request),
      record: (decided: ApprovalDecision) => decided,
      restore: (recorded: ApprovalDecision) => recorded,
    });
    return this.#verdict(context, request, decision);
  }

  /** The verdict of a decision: at once, from a grant, or by asking. */
  #verdict(
    context: GateContext,
    request: ApprovalRequest,
    decision: ApprovalDecision,
  ): Promise<GateVerdict> | GateVerdict {
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
   * Answers a waiting `approval-requested`. Throws an AgentUsageError: `unknown_approval` for an id that
   * is not waiting (never asked, already answered, or its run ended), `invalid_usage` for an answer whose
   * `decision` is not one of the choices; the request still waits then.
   */
  answer(requestId: string, answer: ApprovalAnswer): void {
    const pending = this.#pending.get(requestId);
    if (!pending) {
      throw new AgentUsageError(
        `No approval request "${requestId}" is waiting: it was answered already, or its run ended.`,
        'unknown_approval',
      );
    }
    checkAnswer(answer);
    this.#pending.delete(requestId);
    // An answer given inside an `approval-requested` listener takes effect once every listener has seen the
    // request, so no one sees it resolved before it was asked.
    queueMicrotask(() => pending.journal.answer(requestId, answer));
  }

  /** Takes the error that must end the run, if a call could not be asked about. */
  takeUnanswered(): AgentloopError | undefined {
    const error = this.#unanswered;
    this.#unanswered = undefined;
    return error;
  }

  /** The grants given with `allow-session` so far, in order: a durable run keeps them in its session's state. */
  get grants(): readonly ApprovalGrant[] {
    // A call's grant is kept as it always was, without its default kind: state written before grants had
    // kinds reads the same.
    return this.#grants.map(({ kind, ...grant }) =>
      (kind ?? 'tool-call') === 'tool-call' ? grant : { kind, ...grant },
    );
  }

  /** Adds grants given before (kept in a session's state, say): calls they cover run without asking. */
  addGrants(grants: readonly ApprovalGrant[]): void {
    for (const grant of grants) {
      this.#grants.push({
        kind: grant.kind ?? 'tool-call',
        toolName: grant.toolName,
        ...(grant.commandPrefix === undefined ? {} : { commandPrefix: grant.commandPrefix }),
      });
    }
  }

  /** The policy's decision; a policy that fails denies, with a message that says so. Never throws. */
  async #decide(request: ApprovalRequest): Promise<ApprovalDecision> {
    try {
      return await this.policy.decide(request);
    } catch (error) {
      return {
        action: 'deny',
        message: `Not run: the approval policy failed (${describeThrown(error)}), so the call could not be approved.`,
      };
    }
  }

  #granted(request: ApprovalRequest): boolean {
    return this.#grants.some(
      (grant) =>
        (grant.kind ?? 'tool-call') === (request.kind ?? 'tool-call') &&
        grant.toolName === request.toolName &&
        (grant.commandPrefix === undefined ||
          (request.command !== undefined && startsWithCommand(request.command, grant.commandPrefix))),
    );
  }

  async #ask(context: GateContext, request: ApprovalRequest, reason: string): Promise<GateVerdict> {
    const { events, iteration, signal, journal } = context;
    if (events.listenerCount('approval-requested') === 0) {
      this.#unanswered ??= new AgentloopError(
        `${request.toolName} needs approval (${reason}), but nothing answers approval requests. Listen for ` +
          "'approval-requested' and answer with agent.answerApproval(), or choose an approval mode or rule " +
          'that allows this call.',
        { code: 'approval_unanswered' },
      );
      return denied('Not run: it needs the user’s approval and no one can give it here. Tell the user what you need.');
    }
    const requestId = this.#requestIds.next(context.runId);
    const { toolCallId, toolName } = request;
    const resolved = (decision: ApprovalChoice | 'cancelled') =>
      events.emit({ type: 'approval-resolved', iteration, requestId, toolCallId, name: toolName, decision });
    let answer: ApprovalAnswer;
    try {
      answer = await journal.awaitAnswer<ApprovalAnswer>(
        requestId,
        () => {
          this.#pending.set(requestId, { request, journal });
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
            ...(request.kind === 'sampling' && request.sampling
              ? { kind: 'sampling', sampling: request.sampling }
              : {}),
          });
        },
        { signal },
      );
    } catch (error) {
      this.#pending.delete(requestId);
      if (!signal.aborted) throw error;
      resolved('cancelled');
      return { run: false, code: 'cancelled', message: CANCELLED_RESULT };
    }
    this.#pending.delete(requestId);
    const verdict = this.#apply(request, answer);
    resolved(answer.decision);
    return verdict;
  }

  #apply(request: ApprovalRequest, answer: ApprovalAnswer): GateVerdict {
    switch (answer.decision) {
      case 'allow-once':
        return RUN;
      case 'allow-session':
        this.addGrants([
          { kind: request.kind ?? 'tool-call', toolName: request.toolName, commandPrefix: answer.commandPrefix },
        ]);
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

/** Throws an AgentUsageError (`invalid_usage`) for an answer that is none of the choices. */
function checkAnswer(answer: ApprovalAnswer): void {
  const decision = (answer as { decision?: unknown } | undefined)?.decision;
  if (!CHOICES.includes(decision as ApprovalChoice)) {
    throw new AgentUsageError(
      `An approval answer's decision must be ${CHOICES.map((choice) => `"${choice}"`).join(', ')}, got ${JSON.stringify(decision)}.`,
      'invalid_usage',
    );
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
