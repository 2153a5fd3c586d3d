import type { AgentEventMap } from '@agentloop/core';
import { LOOP_CONTROL_TOOLS } from './loop-control-tools.js';
import { stripControls } from './strip-controls.js';
import type { Style } from './terminal.js';
import { cutText, oneLine } from './text-summary.js';
import { formatToolCall, formatToolCallLine } from './tool-call-line.js';

type SubagentEvent = AgentEventMap['subagent-event'];

/** What a sub-agent's event shows: a line to print, a status for the spinner, or nothing. */
export interface SubagentView {
  line?: string;
  status?: string;
}

/**
 * The lines of sub-agents' steps (agents the session's agent calls as tools), indented under the call
 * that runs them and named by their path (`researcher › read_file(…)`). Collapsed (the default), a child
 * shows one line per tool call it made; verbose, its text and thinking too, each folded to one line.
 * A child's streamed text never reaches the terminal as it streams: several children may run at once.
 */
export class SubagentLines {
  readonly #style: Style;
  readonly #width: number;
  readonly #calls = new Map<string, unknown>();

  constructor(style: Style, width: number) {
    this.#style = style;
    this.#width = width;
  }

  /** What `event` shows, in verbose mode or not. */
  view(event: SubagentEvent, verbose: boolean): SubagentView {
    const inner = event.event;
    const depth = '  '.repeat(event.path.length);
    const who = event.path.map((step) => stripControls(step.toolName)).join(' › ');
    const prefix = `${depth}${this.#style.dim(`↳ ${who}`)}`;
    const key = (toolCallId: string) => `${event.path.map((step) => step.toolCallId).join('/')}/${toolCallId}`;
    switch (inner.type) {
      case 'tool-call':
        if (LOOP_CONTROL_TOOLS.has(inner.name)) return {};
        this.#calls.set(key(inner.toolCallId), inner.arguments);
        return { status: `${who} › ${formatToolCall(inner.name, inner.arguments, this.#style)}` };
      case 'tool-result':
      case 'tool-result-error': {
        const isError = inner.type === 'tool-result-error';
        const callArguments = this.#calls.get(key(inner.toolCallId));
        this.#calls.delete(key(inner.toolCallId));
        if (LOOP_CONTROL_TOOLS.has(inner.name) && !isError) return {};
        const call = {
          name: inner.name,
          arguments: callArguments,
          durationMs: inner.durationMs,
          content: inner.content,
        };
        const room = this.#width - depth.length - who.length - 3;
        return { line: `${prefix} ${formatToolCallLine({ ...call, isError }, this.#style, room)}` };
      }
      case 'message-end':
        return verbose && inner.text.trim() !== '' ? { line: `${prefix}: ${this.#folded(inner.text, who)}` } : {};
      case 'thinking-end':
        return verbose && inner.text.trim() !== ''
          ? { line: `${prefix} ${this.#style.dim(`✻ ${this.#folded(inner.text, who)}`)}` }
          : {};
      case 'loop-iteration':
        return { status: `${who}: working…` };
      default:
        return {};
    }
  }

  #folded(text: string, who: string): string {
    const room = Math.max(20, this.#width - who.length - 8);
    return cutText(oneLine(stripControls(text)), room).text;
  }
}
