import type { AssistantMessage, FinishReason, TextPart, ThinkingPart, Usage } from '@agentloop/spec';
import { addUsage, emptyUsage } from '@agentloop/spec';
import type { AgentEventSink } from '../events/index.js';
import type { ModelStep, StepEvent, ToolCall, ToolProtocolAdapter } from './tool-protocol.js';

type Part = AssistantMessage['content'][number];

/**
 * Collects one model response from its decoded stream, emitting the text, thinking and tool-call-start
 * events as they arrive, and keeping the parts in the order the model produced them (Anthropic needs
 * thinking back before the tool use it led to). A `retry` that discards output starts the step over.
 */
export class ModelStepCollector {
  #parts: Part[] = [];
  #toolCalls: ToolCall[] = [];
  #text = '';
  #rawText = '';
  #usage: Usage = emptyUsage();
  #finishReason: FinishReason = 'other';
  /** The text or thinking part still growing (the last of `#parts`), if any. */
  #open: TextPart | ThinkingPart | undefined;

  constructor(
    private readonly events: AgentEventSink,
    private readonly iteration: number,
  ) {}

  /** Takes one decoded event. `rawText` is the raw model text it came from, for XML history. */
  accept(event: StepEvent): void {
    switch (event.type) {
      case 'text-delta':
        this.#appendText(event.text);
        break;
      case 'thinking-delta':
        this.#appendThinking(event.text);
        break;
      case 'thinking-end':
        this.#endThinking(event.part);
        break;
      case 'tool-call-start':
        this.#close();
        this.events.emit({
          type: 'tool-call-start',
          iteration: this.iteration,
          toolCallId: event.toolCallId,
          name: event.toolName,
        });
        break;
      case 'tool-call': {
        this.#close();
        const call = this.#withUniqueId(event.call);
        this.#toolCalls.push(call);
        // History keeps the call as a plain part: what the model sent, without the loop's notes on it.
        this.#parts.push({
          type: 'tool-call',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          arguments: call.arguments,
          ...(call.providerMetadata ? { providerMetadata: call.providerMetadata } : {}),
        });
        break;
      }
      case 'usage':
        this.#usage = addUsage(this.#usage, event.usage);
        break;
      case 'finish':
        this.#finishReason = event.reason;
        break;
      case 'retry':
        // Open text or thinking of the discarded attempt still gets its end event, so lifecycles pair up.
        if (event.discardOutput) this.#close();
        this.events.emit({ ...event, iteration: this.iteration });
        if (event.discardOutput) this.#reset();
        break;
    }
  }

  /** Adds raw model text to what history keeps (the XML protocol keeps the text with its blocks). */
  recordRawText(text: string): void {
    this.#rawText += text;
  }

  /** Closes open text or thinking and returns the step. */
  finish(protocol: ToolProtocolAdapter): ModelStep {
    this.#close();
    const step = { text: this.#text, toolCalls: this.#toolCalls, usage: this.#usage, finishReason: this.#finishReason };
    return { ...step, protocol, message: protocol.assistantMessage(step, this.#parts, this.#rawText) };
  }

  // Anthropic rejects a history with two tool uses of the same id, and events would be ambiguous; servers
  // behind OpenAI-compatible APIs do repeat ids.
  #withUniqueId(call: ToolCall): ToolCall {
    const base = call.toolCallId || 'call';
    let id = base;
    for (let n = 2; this.#toolCalls.some((seen) => seen.toolCallId === id); n++) id = `${base}_${n}`;
    return id === call.toolCallId ? call : { ...call, toolCallId: id };
  }

  #appendText(text: string): void {
    if (text === '') return;
    let part = this.#open;
    if (part?.type !== 'text') {
      this.#close();
      part = { type: 'text', text: '' };
      this.#openPart(part);
      this.events.emit({ type: 'message-start', iteration: this.iteration });
    }
    part.text += text;
    this.#text += text;
    this.events.emit({ type: 'message-content', iteration: this.iteration, text });
  }

  #appendThinking(text: string): ThinkingPart {
    let part = this.#open;
    if (part?.type !== 'thinking') {
      this.#close();
      part = { type: 'thinking', text: '' };
      this.#openPart(part);
      this.events.emit({ type: 'thinking-start', iteration: this.iteration });
    }
    part.text += text;
    if (text !== '') this.events.emit({ type: 'thinking-content', iteration: this.iteration, text });
    return part;
  }

  #endThinking(extra: Omit<ThinkingPart, 'type' | 'text'> | undefined): void {
    // A redacted block arrives as an end with no content before it.
    const part = this.#appendThinking('');
    if (extra?.signature !== undefined) part.signature = extra.signature;
    if (extra?.redactedData !== undefined) part.redactedData = extra.redactedData;
    if (extra?.providerMetadata !== undefined) part.providerMetadata = extra.providerMetadata;
    this.#close();
  }

  #openPart(part: TextPart | ThinkingPart): void {
    this.#parts.push(part);
    this.#open = part;
  }

  #close(): void {
    const part = this.#open;
    if (!part) return;
    this.#open = undefined;
    const type = part.type === 'text' ? 'message-end' : 'thinking-end';
    this.events.emit({ type, iteration: this.iteration, text: part.text });
  }

  #reset(): void {
    this.#parts = [];
    this.#toolCalls = [];
    this.#text = '';
    this.#rawText = '';
    this.#open = undefined;
  }
}
