import type { AgentEvent, AgentEventMap, AgentResult, SubagentStep } from '@agentloop/core';
import { isLoopControlToolName } from '@agentloop/core';
import { approvalView } from '../approvals/approval-view.js';
import { requestedElicitation } from '../runs/requested-elicitation.js';
import type { RunEnd } from '../runs/run-listener.js';
import { safeErrorText } from './safe-error-text.js';
import type {
  AgentloopApprovalData,
  AgentloopElicitationData,
  AgentloopMessageMetadata,
  UiFinishReason,
  UiMessageChunk,
} from './ui-message-chunk.js';
import { UiMessageParts } from './ui-message-parts.js';

/** Options of a UiChunkMapper. */
export interface UiChunkMapperOptions {
  /**
   * Tool calls the client shows already, when a response continues its message (after an approval): their
   * results and denials are sent although this mapper did not see the calls begin.
   */
  knownToolCallIds?: Iterable<string>;
  /**
   * The agent's own approval requests that wait still when a response continues (the client answered
   * others): the response ends again once nothing else runs, so the client can answer them.
   */
  awaitingApprovals?: Iterable<{ requestId: string; toolCallId: string }>;
  /** Shown calls that run on from here (their approval was just given): the response waits for them. */
  runningToolCallIds?: Iterable<string>;
  /**
   * Elicitations that wait still when a response continues: sent again with their `action` once answered,
   * although this mapper did not see them asked.
   */
  pendingElicitations?: Iterable<AgentloopElicitationData>;
  /** When an elicitation is cancelled unless answered, in ms from its request; gives `expiresAt`. */
  approvalTimeoutMs?: number;
  /** The clock, for `expiresAt`. Default `Date.now`. */
  now?: () => number;
}

/**
 * Turns one response's share of a run's agent events into AI SDK 6 UI message chunks. One mapper per
 * response: it numbers its text and reasoning parts, keeps steps balanced and knows which tool calls it
 * showed, so that a result only goes to a call the client has a part for.
 *
 * - Each model call is a step (`start-step` … `finish-step`); text and reasoning stream as parts.
 * - Tool calls appear when they run (`tool-input-start`, `tool-input-available`), under the tool's own
 *   name, and end with `tool-output-available` (what the tool returned, or the text the model saw when
 *   that is no JSON), `tool-output-error` or, after a denial, `tool-output-denied`.
 * - The loop-control tools are no tool parts: `task_completion`'s result, `ask_question`'s question and
 *   `converse`'s message become text, with `data-agentloop-result` and `data-agentloop-question` beside.
 * - An approval request of the agent's own call is the SDK's `tool-approval-request` (its approval id is
 *   the request id), with a `data-agentloop-approval` part for what the SDK does not carry. A sub-agent's
 *   approval request and question are only data parts (`data-agentloop-approval`,
 *   `data-agentloop-subagent-question`), answered through the session routes while the response goes on:
 *   the SDK would send an answer only once no tool part of the step runs, and the sub-agent's runs.
 * - A tool's request for the user's input (an MCP server's elicitation) is a `data-agentloop-elicitation`
 *   part (its id is the request id), sent again with `action` once answered; the response goes on while
 *   it waits, since its call runs, and the answer comes through the session routes.
 *
 * `waitingOnUser` says when the response should end so the user can answer (see its doc).
 */
export class UiChunkMapper {
  readonly #parts = new UiMessageParts();
  /** Tool calls the client has a part for. */
  readonly #shown: Set<string>;
  /** Shown calls that have no output yet and wait on no approval. */
  readonly #running = new Set<string>();
  /** The agent's own approval requests that wait: request id → tool call id. */
  readonly #awaiting = new Map<string, string>();
  /** Calls whose denial was sent: the error result that follows it is the same news. */
  readonly #denied = new Set<string>();
  /** What each approval part said, to send it again with its decision. */
  readonly #approvals = new Map<string, AgentloopApprovalData>();
  /** What each elicitation part said, to send it again with its action. */
  readonly #elicitations = new Map<string, AgentloopElicitationData>();
  readonly #approvalTimeoutMs: number | undefined;
  readonly #now: () => number;
  #usage: AgentloopMessageMetadata['usage'];
  /** The text of the last reply without a tool call, which the loop may take as `converse`. */
  #replyWithoutTool: { iteration: number; text: string } | undefined;

  constructor(options: UiChunkMapperOptions = {}) {
    this.#shown = new Set(options.knownToolCallIds);
    for (const { requestId, toolCallId } of options.awaitingApprovals ?? []) {
      if (this.#shown.has(toolCallId)) this.#awaiting.set(requestId, toolCallId);
    }
    for (const toolCallId of options.runningToolCallIds ?? []) {
      if (this.#shown.has(toolCallId)) this.#running.add(toolCallId);
    }
    for (const elicitation of options.pendingElicitations ?? []) {
      this.#elicitations.set(elicitation.requestId, elicitation);
    }
    this.#approvalTimeoutMs = options.approvalTimeoutMs;
    this.#now = options.now ?? Date.now;
  }

  /**
   * True when the run waits on the user's approval and on nothing else this response shows: every call
   * of the step that has begun has its output or waits for approval. The AI SDK's client sends the
   * answers (`sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`) only when no
   * tool part of the step is still running, so the response ends here, and the next request carries them.
   */
  get waitingOnUser(): boolean {
    return this.#awaiting.size > 0 && this.#running.size === 0;
  }

  /** The chunks that open a response: `start`, naming the run (and the message id, for a new message). */
  start(options: { runId: string; messageId?: string }): UiMessageChunk[] {
    return [
      {
        type: 'start',
        ...(options.messageId === undefined ? {} : { messageId: options.messageId }),
        messageMetadata: { runId: options.runId },
      },
    ];
  }

  /** The chunks of one agent event (none for the events a chat does not show). */
  map(event: AgentEvent): UiMessageChunk[] {
    switch (event.type) {
      case 'loop-iteration':
        return this.#parts.startStep();
      case 'thinking-start':
        return this.#parts.openReasoning();
      case 'thinking-content':
        return this.#parts.reasoningDelta(event.text);
      case 'thinking-end':
        return this.#parts.closeReasoning();
      case 'message-start':
        return this.#parts.openText();
      case 'message-content':
        return this.#parts.textDelta(event.text);
      case 'message-end':
        return this.#parts.closeText();
      case 'tool-call':
        return this.#toolCall(event);
      case 'approval-requested':
        return this.#approvalRequested(event, []);
      case 'approval-resolved':
        return this.#approvalResolved(event, []);
      case 'elicitation-requested':
        return this.#elicitationRequested(event, []);
      case 'elicitation-resolved':
        return this.#elicitationResolved(event);
      case 'tool-result':
        return this.#toolOutput(event.toolCallId, () => ({
          type: 'tool-output-available',
          toolCallId: event.toolCallId,
          output: jsonSafe(event.value) ?? event.content,
        }));
      case 'tool-result-error':
        if (this.#denied.has(event.toolCallId)) {
          this.#shown.delete(event.toolCallId);
          return [];
        }
        return this.#toolOutput(event.toolCallId, () => ({
          type: 'tool-output-error',
          toolCallId: event.toolCallId,
          errorText: event.content,
        }));
      case 'task-complete':
        return [
          ...this.#parts.wholeText(
            typeof event.result === 'string' ? event.result : JSON.stringify(event.result, null, 2),
          ),
          { type: 'data-agentloop-result', data: { result: event.result, artifacts: event.artifacts ?? [] } },
        ];
      case 'question-asked':
        return [
          ...this.#parts.wholeText(event.question),
          { type: 'data-agentloop-question', data: { question: event.question, suggestions: event.suggestions ?? [] } },
        ];
      case 'retry':
        // The open parts end here, so that a retried step's output starts parts of its own.
        return [
          ...this.#parts.closeParts(),
          {
            type: 'data-agentloop-retry',
            data: {
              attempt: event.attempt,
              delayMs: event.delayMs,
              discardOutput: event.discardOutput,
              code: String(event.error.code),
            },
          },
        ];
      case 'no-tool-call':
        this.#replyWithoutTool = { iteration: event.iteration, text: event.text.trim() };
        return [];
      case 'converse':
        // A model that keeps answering without tools has its last reply taken as `converse`: that text
        // streamed already, and is not shown twice.
        if (this.#replyWithoutTool?.iteration === event.iteration && this.#replyWithoutTool.text === event.message) {
          return [];
        }
        return this.#parts.wholeText(event.message);
      case 'usage':
        this.#usage = toUsage(event.total);
        return [{ type: 'message-metadata', messageMetadata: { usage: this.#usage } }];
      case 'subagent-event':
        return this.#subagentEvent(event.path, event.event);
      case 'subagent-question':
        return [
          {
            type: 'data-agentloop-subagent-question',
            id: event.requestId,
            data: {
              requestId: event.requestId,
              question: event.question,
              suggestions: event.suggestions ?? [],
              path: event.path,
            },
          },
        ];
      default:
        return [];
    }
  }

  /** The chunks that end a response the run goes on without: it waits for the user's answer. */
  pause(): UiMessageChunk[] {
    return [
      ...this.#parts.closeParts(),
      ...this.#parts.closeStep(),
      {
        type: 'finish',
        finishReason: 'tool-calls',
        ...(this.#usage ? { messageMetadata: { usage: this.#usage } } : {}),
      },
    ];
  }

  /** The chunks that end the response with the run: what ended it, and `finish`. */
  end(end: RunEnd): UiMessageChunk[] {
    const closing = [...this.#parts.closeParts(), ...this.#parts.closeStep()];
    if (!end.result) {
      return [
        ...closing,
        { type: 'error', errorText: safeErrorText(end.error) },
        { type: 'finish', finishReason: 'error' },
      ];
    }
    const { result } = end;
    const metadata: AgentloopMessageMetadata = { exit: result.exit, usage: toUsage(result.usage) };
    return [
      ...closing,
      ...this.#exitChunks(result),
      { type: 'finish', finishReason: finishReason(result), messageMetadata: metadata },
    ];
  }

  #exitChunks(result: AgentResult<unknown>): UiMessageChunk[] {
    switch (result.exit) {
      case 'error':
        return [{ type: 'error', errorText: safeErrorText(result.error) }];
      case 'cancelled':
        return [{ type: 'abort', reason: 'The run was cancelled.' }];
      case 'max_iterations': {
        const stopped = `Stopped after ${result.iterations} model calls without finishing the task.`;
        const summary = result.payload?.result;
        return this.#parts.wholeText(
          typeof summary === 'string' && summary !== '' ? `${stopped}\n\n${summary}` : stopped,
        );
      }
      default:
        return [];
    }
  }

  #toolCall(event: AgentEventMap['tool-call']): UiMessageChunk[] {
    // A loop-control call is shown by what it says (task-complete, question-asked, converse), not as a tool.
    if (isLoopControlToolName(event.name)) return [];
    this.#shown.add(event.toolCallId);
    this.#running.add(event.toolCallId);
    return [
      ...this.#parts.closeParts(),
      { type: 'tool-input-start', toolCallId: event.toolCallId, toolName: event.name },
      { type: 'tool-input-available', toolCallId: event.toolCallId, toolName: event.name, input: event.arguments },
    ];
  }

  #approvalRequested(event: AgentEventMap['approval-requested'], path: readonly SubagentStep[]): UiMessageChunk[] {
    const approval: AgentloopApprovalData = {
      requestId: event.requestId,
      toolCallId: event.toolCallId,
      name: event.name,
      arguments: event.arguments,
      ...(event.command === undefined ? {} : { command: event.command }),
      reason: event.reason,
      view: approvalView(event),
      choices: event.choices,
      path,
    };
    this.#approvals.set(event.requestId, approval);
    const data: UiMessageChunk = { type: 'data-agentloop-approval', id: event.requestId, data: approval };
    // A sub-agent's call has no tool part here, and its parent's call runs on: the response goes on too.
    if (path.length > 0 || !this.#shown.has(event.toolCallId)) return [data];
    this.#running.delete(event.toolCallId);
    this.#awaiting.set(event.requestId, event.toolCallId);
    return [
      ...this.#parts.closeParts(),
      data,
      { type: 'tool-approval-request', approvalId: event.requestId, toolCallId: event.toolCallId },
    ];
  }

  #approvalResolved(event: AgentEventMap['approval-resolved'], path: readonly SubagentStep[]): UiMessageChunk[] {
    const chunks: UiMessageChunk[] = [];
    // The part is sent again with its decision, whole (the client replaces a data part by its id); a
    // response that continues after the request has no copy, and the tool part's state says it there.
    const approval = this.#approvals.get(event.requestId);
    this.#approvals.delete(event.requestId);
    if (approval) {
      chunks.push({
        type: 'data-agentloop-approval',
        id: event.requestId,
        data: { ...approval, decision: event.decision },
      });
    }
    if (path.length > 0) return chunks;
    this.#awaiting.delete(event.requestId);
    if (!this.#shown.has(event.toolCallId)) return chunks;
    if (event.decision === 'deny') {
      this.#denied.add(event.toolCallId);
      this.#running.delete(event.toolCallId);
      chunks.push({ type: 'tool-output-denied', toolCallId: event.toolCallId });
    } else {
      // Allowed (or cancelled, whose error result follows): the call runs, or ends, from here.
      this.#running.add(event.toolCallId);
    }
    return chunks;
  }

  #toolOutput(toolCallId: string, chunk: () => UiMessageChunk): UiMessageChunk[] {
    // Loop-control calls, and calls never run (not shown), have no part to end.
    if (!this.#shown.has(toolCallId)) return [];
    this.#shown.delete(toolCallId);
    this.#running.delete(toolCallId);
    return [chunk()];
  }

  #subagentEvent(path: readonly SubagentStep[], event: AgentEvent): UiMessageChunk[] {
    if (event.type === 'approval-requested') return this.#approvalRequested(event, path);
    if (event.type === 'approval-resolved') return this.#approvalResolved(event, path);
    if (event.type === 'elicitation-requested') return this.#elicitationRequested(event, path);
    if (event.type === 'elicitation-resolved') return this.#elicitationResolved(event);
    return [];
  }

  #elicitationRequested(
    event: AgentEventMap['elicitation-requested'],
    path: readonly SubagentStep[],
  ): UiMessageChunk[] {
    const elicitation: AgentloopElicitationData = {
      ...requestedElicitation(event),
      path,
      ...(this.#approvalTimeoutMs === undefined
        ? {}
        : { expiresAt: new Date(this.#now() + this.#approvalTimeoutMs).toISOString() }),
    };
    this.#elicitations.set(event.requestId, elicitation);
    // The call runs while it waits, so the response goes on: the answer comes through the session route.
    return [
      ...this.#parts.closeParts(),
      { type: 'data-agentloop-elicitation', id: event.requestId, data: elicitation },
    ];
  }

  #elicitationResolved(event: AgentEventMap['elicitation-resolved']): UiMessageChunk[] {
    const elicitation = this.#elicitations.get(event.requestId);
    this.#elicitations.delete(event.requestId);
    if (!elicitation) return [];
    // Whole again, with the action: the client replaces a data part by its id.
    return [
      { type: 'data-agentloop-elicitation', id: event.requestId, data: { ...elicitation, action: event.action } },
    ];
  }
}

function finishReason(result: AgentResult<unknown>): UiFinishReason {
  switch (result.exit) {
    case 'max_iterations':
      return 'length';
    case 'error':
      return 'error';
    case 'cancelled':
      return 'other';
    default:
      return 'stop';
  }
}

function toUsage(usage: { inputTokens: number; outputTokens: number }): AgentloopMessageMetadata['usage'] {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
  };
}

/** The value as JSON would carry it, or undefined when it cannot travel as JSON (a cycle, a bigint). */
function jsonSafe(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
