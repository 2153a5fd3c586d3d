import { type BaseEvent, EventType } from '@ag-ui/core';
import type { AgentEvent, AgentEventMap, SubagentStep } from '@agentloop/core';
import { AgentloopError, isLoopControlToolName } from '@agentloop/core';
import { approvalView } from '../approvals/approval-view.js';
import { requestedElicitation } from '../runs/requested-elicitation.js';
import type { RunEnd } from '../runs/run-listener.js';
import { toAguiMessages } from './to-agui-messages.js';

/** The name of the CUSTOM event of a tool call waiting for approval. */
export const APPROVAL_REQUESTED_EVENT = 'agentloop.approval-requested';
/** The name of the CUSTOM event of an approval answered (here or elsewhere), timed out or cancelled. */
export const APPROVAL_RESOLVED_EVENT = 'agentloop.approval-resolved';
/** The name of the CUSTOM event of a question for the user. */
export const QUESTION_EVENT = 'agentloop.question';
/** The name of the CUSTOM event of a model call that is tried again. */
export const RETRY_EVENT = 'agentloop.retry';
/** The name of the CUSTOM event of a tool asking the user for input (an MCP server's elicitation). */
export const ELICITATION_REQUESTED_EVENT = 'agentloop.elicitation-requested';
/** The name of the CUSTOM event of an elicitation answered, or cancelled. */
export const ELICITATION_RESOLVED_EVENT = 'agentloop.elicitation-resolved';

/** Options of an AguiEventMapper. */
export interface AguiEventMapperOptions {
  threadId: string;
  runId: string;
  /** When an approval request is denied (an elicitation cancelled) unless answered, in ms from its request. */
  approvalTimeoutMs: number;
  /** Makes message ids. */
  createId: () => string;
  /** The clock, for approvals' and elicitations' `expiresAt`. Default `Date.now`. */
  now?: () => number;
}

/**
 * Turns a run's agent events into AG-UI events, one agent event at a time: text and reasoning as
 * streamed messages, tool calls with their arguments and results, approvals, questions and elicitations
 * as CUSTOM events, and at the end a MESSAGES_SNAPSHOT of the whole conversation and RUN_FINISHED or RUN_ERROR.
 * Loop-control calls are not shown as tool calls: what they say to the user is a text message.
 */
export class AguiEventMapper {
  readonly #options: AguiEventMapperOptions;
  readonly #now: () => number;
  #textId: string | undefined;
  #reasoningId: string | undefined;
  readonly #startedToolCalls = new Set<string>();
  /** The text of the last reply without a tool call, which the loop may take as `converse`. */
  #replyWithoutTool: { iteration: number; text: string } | undefined;

  constructor(options: AguiEventMapperOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The first event of the stream. */
  started(): BaseEvent[] {
    return [{ type: EventType.RUN_STARTED, threadId: this.#options.threadId, runId: this.#options.runId } as BaseEvent];
  }

  /** The AG-UI events of one agent event (often none). */
  map(event: AgentEvent): BaseEvent[] {
    switch (event.type) {
      case 'thinking-start': {
        const closing = this.#endReasoning();
        this.#reasoningId = this.#options.createId();
        return [
          ...closing,
          { type: EventType.REASONING_START, messageId: this.#reasoningId },
          { type: EventType.REASONING_MESSAGE_START, messageId: this.#reasoningId, role: 'reasoning' },
        ] as BaseEvent[];
      }
      case 'thinking-content':
        if (this.#reasoningId === undefined || event.text === '') return [];
        return [
          { type: EventType.REASONING_MESSAGE_CONTENT, messageId: this.#reasoningId, delta: event.text } as BaseEvent,
        ];
      case 'thinking-end':
        return this.#endReasoning();
      case 'message-start': {
        const closing = this.#endText();
        this.#textId = this.#options.createId();
        return [
          ...closing,
          { type: EventType.TEXT_MESSAGE_START, messageId: this.#textId, role: 'assistant' } as BaseEvent,
        ];
      }
      case 'message-content':
        if (this.#textId === undefined || event.text === '') return [];
        return [{ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.#textId, delta: event.text } as BaseEvent];
      case 'message-end':
        return this.#endText();
      case 'tool-call-start':
        if (isLoopControlToolName(event.name)) return [];
        this.#startedToolCalls.add(event.toolCallId);
        return [this.#toolCallStart(event.toolCallId, event.name)];
      case 'tool-call':
        return this.#toolCall(event);
      case 'tool-result':
      case 'tool-result-error':
        if (isLoopControlToolName(event.name)) return [];
        return [
          {
            type: EventType.TOOL_CALL_RESULT,
            messageId: this.#options.createId(),
            toolCallId: event.toolCallId,
            content: event.content,
            role: 'tool',
          } as BaseEvent,
        ];
      case 'retry':
        // AG-UI cannot take back what was streamed: the open messages are closed, the client is told to
        // drop them (`discardOutput`), and the snapshot at the end holds the conversation as it is.
        return [
          ...(event.discardOutput ? [...this.#endReasoning(), ...this.#endText()] : []),
          {
            type: EventType.CUSTOM,
            name: RETRY_EVENT,
            value: {
              attempt: event.attempt,
              delayMs: event.delayMs,
              discardOutput: event.discardOutput,
              code: event.error.code,
            },
          } as BaseEvent,
        ];
      case 'approval-requested':
        return [this.#approval(event, [])];
      case 'approval-resolved':
        return [approvalResolved(event)];
      case 'elicitation-requested':
        return [this.#elicitation(event, [])];
      case 'elicitation-resolved':
        return [elicitationResolved(event)];
      case 'subagent-event':
        return this.#subagentEvent(event.event, event.path);
      case 'task-complete':
        return this.#say(typeof event.result === 'string' ? event.result : JSON.stringify(event.result));
      case 'no-tool-call':
        this.#replyWithoutTool = { iteration: event.iteration, text: event.text.trim() };
        return [];
      case 'converse':
        // A model that keeps answering without tools has its last reply taken as `converse`: that text
        // streamed already, and is not shown twice.
        if (this.#replyWithoutTool?.iteration === event.iteration && this.#replyWithoutTool.text === event.message) {
          return [];
        }
        return this.#say(event.message);
      case 'question-asked':
        return [
          ...this.#say(event.question),
          {
            type: EventType.CUSTOM,
            name: QUESTION_EVENT,
            value: { question: event.question, suggestions: event.suggestions ?? [] },
          } as BaseEvent,
        ];
      case 'subagent-question':
        return [
          {
            type: EventType.CUSTOM,
            name: QUESTION_EVENT,
            value: {
              question: event.question,
              suggestions: event.suggestions ?? [],
              requestId: event.requestId,
              subagentPath: event.path,
            },
          } as BaseEvent,
        ];
      default:
        return [];
    }
  }

  /** The last events of the stream: open messages closed, the conversation, and how the run ended. */
  ended(end: RunEnd): BaseEvent[] {
    const closing = [...this.#endReasoning(), ...this.#endText()];
    const { threadId, runId } = this.#options;
    if (end.error !== undefined || end.result === undefined) {
      return [...closing, runError(end.error)];
    }
    const { result } = end;
    const snapshot = {
      type: EventType.MESSAGES_SNAPSHOT,
      messages: toAguiMessages(end.messages, threadId),
    } as BaseEvent;
    if (result.exit === 'error') return [...closing, snapshot, runError(result.error)];
    const usage = [
      {
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        totalTokens: result.usage.inputTokens + result.usage.outputTokens,
      },
    ];
    const finished = {
      type: EventType.RUN_FINISHED,
      threadId,
      runId,
      result: { exit: result.exit, ...(isRecord(result.payload) ? result.payload : {}) },
      outcome: result.exit === 'cancelled' ? { type: 'cancelled' } : { type: 'success' },
      usage,
    } as BaseEvent;
    return [...closing, snapshot, finished];
  }

  #toolCall(event: AgentEventMap['tool-call']): BaseEvent[] {
    if (isLoopControlToolName(event.name)) return [];
    const events: BaseEvent[] = [];
    if (!this.#startedToolCalls.has(event.toolCallId)) events.push(this.#toolCallStart(event.toolCallId, event.name));
    this.#startedToolCalls.delete(event.toolCallId);
    events.push(
      {
        type: EventType.TOOL_CALL_ARGS,
        toolCallId: event.toolCallId,
        delta: JSON.stringify(event.arguments ?? {}),
      } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId: event.toolCallId } as BaseEvent,
    );
    return events;
  }

  #toolCallStart(toolCallId: string, name: string): BaseEvent {
    return {
      type: EventType.TOOL_CALL_START,
      toolCallId,
      toolCallName: name,
      ...(this.#textId === undefined ? {} : { parentMessageId: this.#textId }),
    } as BaseEvent;
  }

  #approval(event: AgentEventMap['approval-requested'], path: readonly SubagentStep[]): BaseEvent {
    return {
      type: EventType.CUSTOM,
      name: APPROVAL_REQUESTED_EVENT,
      value: {
        requestId: event.requestId,
        toolCallId: event.toolCallId,
        toolName: event.name,
        arguments: event.arguments,
        ...approvalView(event),
        reason: event.reason,
        choices: event.choices,
        expiresAt: new Date(this.#now() + this.#options.approvalTimeoutMs).toISOString(),
        ...(path.length === 0 ? {} : { subagentPath: path }),
      },
    } as BaseEvent;
  }

  /** What the user answers of a sub-agent's events: its approval requests and elicitations. */
  #subagentEvent(event: AgentEvent, path: readonly SubagentStep[]): BaseEvent[] {
    if (event.type === 'approval-requested') return [this.#approval(event, path)];
    if (event.type === 'approval-resolved') return [approvalResolved(event)];
    if (event.type === 'elicitation-requested') return [this.#elicitation(event, path)];
    if (event.type === 'elicitation-resolved') return [elicitationResolved(event)];
    return [];
  }

  #elicitation(event: AgentEventMap['elicitation-requested'], path: readonly SubagentStep[]): BaseEvent {
    // AG-UI's custom events name a tool `toolName`, as the approval event does.
    const { name: toolName, ...request } = requestedElicitation(event);
    return {
      type: EventType.CUSTOM,
      name: ELICITATION_REQUESTED_EVENT,
      value: {
        ...request,
        toolName,
        expiresAt: new Date(this.#now() + this.#options.approvalTimeoutMs).toISOString(),
        ...(path.length === 0 ? {} : { subagentPath: path }),
      },
    } as BaseEvent;
  }

  /** A whole text message: what a loop-control call says to the user. */
  #say(text: string): BaseEvent[] {
    if (text === '') return [];
    const messageId = this.#options.createId();
    return [
      ...this.#endText(),
      { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text },
      { type: EventType.TEXT_MESSAGE_END, messageId },
    ] as BaseEvent[];
  }

  #endText(): BaseEvent[] {
    if (this.#textId === undefined) return [];
    const messageId = this.#textId;
    this.#textId = undefined;
    return [{ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent];
  }

  #endReasoning(): BaseEvent[] {
    if (this.#reasoningId === undefined) return [];
    const messageId = this.#reasoningId;
    this.#reasoningId = undefined;
    return [
      { type: EventType.REASONING_MESSAGE_END, messageId },
      { type: EventType.REASONING_END, messageId },
    ] as BaseEvent[];
  }
}

function approvalResolved(event: AgentEventMap['approval-resolved']): BaseEvent {
  return {
    type: EventType.CUSTOM,
    name: APPROVAL_RESOLVED_EVENT,
    value: { requestId: event.requestId, toolCallId: event.toolCallId, decision: event.decision },
  } as BaseEvent;
}

function elicitationResolved(event: AgentEventMap['elicitation-resolved']): BaseEvent {
  return {
    type: EventType.CUSTOM,
    name: ELICITATION_RESOLVED_EVENT,
    value: { requestId: event.requestId, action: event.action },
  } as BaseEvent;
}

/** A RUN_ERROR that says what failed without a stack: an agentloop error's message and code, else nothing more. */
function runError(error: unknown): BaseEvent {
  if (AgentloopError.isInstance(error)) {
    return { type: EventType.RUN_ERROR, message: error.message, code: error.code } as BaseEvent;
  }
  return {
    type: EventType.RUN_ERROR,
    message: 'The run failed; the server log says why.',
    code: 'internal_error',
  } as BaseEvent;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
