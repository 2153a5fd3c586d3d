import { randomUUID } from 'node:crypto';
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { AgentEvent, ToolAnnotations } from '@agentloop/core';
import { isLoopControlToolName } from '@agentloop/core';
import { toolCallView } from './tool-call-view.js';

/** The longest tool result shown in the editor beside its call; the model still gets all of it. */
export const SHOWN_RESULT_CHARS = 4000;

/** What a mapper needs to know about the session. */
export interface SessionUpdateMapperOptions {
  /** The session's working directory, against which the tools' relative paths are shown. */
  cwd: string;
  /** What a tool declares, for the kind of calls of tools the mapper does not know. */
  annotations?: (toolName: string) => ToolAnnotations | undefined;
  /** Makes message ids. Default: `crypto.randomUUID`. */
  createId?: () => string;
}

/** What the mapper keeps about a call it announced. */
interface ShownCall {
  /** The call's view carries content of its own (an edit's diff), or a terminal shows it. */
  keepsContent: boolean;
}

/**
 * Turns the agent's events into the Agent Client Protocol's `session/update`s: text and reasoning as
 * message and thought chunks (each part with a message id of its own), tool calls as `tool_call` (from
 * `tool-call-start` or `tool-call`) and `tool_call_update` (the arguments once known, progress, the
 * result or the failure). Loop-control calls are not shown as tool calls: their payload is the turn's
 * last message (see endingMessage). One mapper per session; it keeps which calls it announced.
 */
export class SessionUpdateMapper {
  readonly #cwd: string;
  readonly #annotations: (toolName: string) => ToolAnnotations | undefined;
  readonly #createId: () => string;
  readonly #calls = new Map<string, ShownCall>();
  #messageId: string | undefined;
  #thoughtId: string | undefined;

  constructor(options: SessionUpdateMapperOptions) {
    this.#cwd = options.cwd;
    this.#annotations = options.annotations ?? (() => undefined);
    this.#createId = options.createId ?? randomUUID;
  }

  /** The updates an event becomes; none for most events. Never throws. */
  map(event: AgentEvent): SessionUpdate[] {
    switch (event.type) {
      case 'message-start':
        this.#messageId = this.#createId();
        return [];
      case 'message-content':
        this.#messageId ??= this.#createId();
        return [this.messageChunk(event.text, this.#messageId)];
      case 'thinking-start':
        this.#thoughtId = this.#createId();
        return [];
      case 'thinking-content':
        this.#thoughtId ??= this.#createId();
        return [
          {
            sessionUpdate: 'agent_thought_chunk',
            content: { type: 'text', text: event.text },
            messageId: this.#thoughtId,
          },
        ];
      case 'retry':
        // What was shown of the failed attempt cannot be taken back; say that it starts again.
        return event.discardOutput
          ? [this.messageChunk('\n\n(The connection to the model broke; its answer starts again.)\n\n')]
          : [];
      case 'tool-call-start':
        return isLoopControlToolName(event.name) ? [] : this.#started(event.toolCallId, event.name);
      case 'tool-call':
        return isLoopControlToolName(event.name) ? [] : this.#called(event.toolCallId, event.name, event.arguments);
      case 'tool-progress':
        return this.#calls.get(event.toolCallId)?.keepsContent === false
          ? [
              {
                sessionUpdate: 'tool_call_update',
                toolCallId: event.toolCallId,
                content: [text(event.progress.message)],
              },
            ]
          : [];
      case 'tool-result':
        return this.#ended(event.toolCallId, 'completed', event.name === 'read_file' ? undefined : event.content);
      case 'tool-result-error':
        return this.#ended(event.toolCallId, 'failed', event.content);
      case 'subagent-event':
        return this.#nested(event);
      default:
        return [];
    }
  }

  /** A piece of the agent's message; a message id of its own unless given. */
  messageChunk(text: string, messageId: string = this.#createId()): SessionUpdate {
    return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, messageId };
  }

  /**
   * A terminal now shows the call's command (see createClientCommandRunner): the update that embeds it,
   * and the call's result will not replace it.
   */
  terminal(toolCallId: string, terminalId: string): SessionUpdate {
    const shown = this.#calls.get(toolCallId);
    if (shown) shown.keepsContent = true;
    return { sessionUpdate: 'tool_call_update', toolCallId, content: [{ type: 'terminal', terminalId }] };
  }

  /**
   * A sub-agent's tool calls, shown as calls of their own beside the call that runs the sub-agent: an id
   * made unique by the path of calls down to it, and a title that names that path (`researcher › Read
   * notes.md`). Its text and thinking are not shown: they would run into the agent's own message, and
   * the sub-agent's result comes back as its call's result.
   */
  #nested(event: Extract<AgentEvent, { type: 'subagent-event' }>): SessionUpdate[] {
    const inner = event.event;
    const scope = event.path.map((step) => step.toolCallId).join('/');
    const prefix = `${event.path.map((step) => step.toolName).join(' › ')} › `;
    const id = (toolCallId: string) => `${scope}/${toolCallId}`;
    switch (inner.type) {
      case 'tool-call-start':
        return isLoopControlToolName(inner.name) ? [] : this.#started(id(inner.toolCallId), inner.name, prefix);
      case 'tool-call':
        return isLoopControlToolName(inner.name)
          ? []
          : this.#called(id(inner.toolCallId), inner.name, inner.arguments, prefix);
      case 'tool-progress':
        return this.map({ ...inner, toolCallId: id(inner.toolCallId) });
      case 'tool-result':
      case 'tool-result-error':
        return this.map({ ...inner, toolCallId: id(inner.toolCallId) });
      default:
        return [];
    }
  }

  #started(toolCallId: string, name: string, titlePrefix = ''): SessionUpdate[] {
    this.#calls.set(toolCallId, { keepsContent: false });
    const view = toolCallView({ name, arguments: undefined, cwd: this.#cwd, annotations: this.#annotations(name) });
    return [
      { sessionUpdate: 'tool_call', toolCallId, title: `${titlePrefix}${name}`, kind: view.kind, status: 'pending' },
    ];
  }

  #called(toolCallId: string, name: string, args: unknown, titlePrefix = ''): SessionUpdate[] {
    const view = toolCallView({ name, arguments: args, cwd: this.#cwd, annotations: this.#annotations(name) });
    const announced = this.#calls.has(toolCallId);
    this.#calls.set(toolCallId, { keepsContent: view.content.length > 0 });
    const fields = {
      toolCallId,
      title: `${titlePrefix}${view.title}`,
      kind: view.kind,
      status: 'in_progress' as const,
      locations: view.locations,
      content: view.content,
      rawInput: args,
    };
    return [announced ? { sessionUpdate: 'tool_call_update', ...fields } : { sessionUpdate: 'tool_call', ...fields }];
  }

  #ended(toolCallId: string, status: 'completed' | 'failed', result: string | undefined): SessionUpdate[] {
    const shown = this.#calls.get(toolCallId);
    // Calls never announced (loop-control ones, answered by the loop) have nothing to end.
    if (!shown) return [];
    this.#calls.delete(toolCallId);
    // A failed edit did not happen: its diff gives way to the error. A completed one keeps its diff.
    const replace = status === 'failed' || !shown.keepsContent;
    const content: ToolCallContent[] | undefined =
      replace && result !== undefined ? [text(status === 'failed' ? result : fenced(result))] : undefined;
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status,
        ...(content ? { content } : {}),
        ...(result === undefined ? {} : { rawOutput: result }),
      },
    ];
  }
}

function text(value: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: value } };
}

// Tool output is text, not Markdown: fenced, so that an editor shows listings and code as they are.
function fenced(result: string): string {
  const cut =
    result.length > SHOWN_RESULT_CHARS
      ? `${result.slice(0, SHOWN_RESULT_CHARS)}\n[… ${result.length - SHOWN_RESULT_CHARS} more characters]`
      : result;
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(cut) + 1));
  return `${fence}\n${cut}\n${fence}`;
}

function longestBacktickRun(value: string): number {
  let longest = 0;
  for (const run of value.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}
