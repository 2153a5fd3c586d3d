import type { Message, ModelChunk, ModelRequest } from '@agentloop/core';
import { cutText, formatCount, formatDuration } from '../render/index.js';
import { redactUrlCredentials } from './redact.js';

/** How much of each payload the verbose log shows. */
export interface PayloadLimits {
  /** Characters of one text (a message part, the system prompt). */
  text: number;
  /** Messages of the conversation, the latest kept. */
  messages: number;
}

const DEFAULT_LIMITS: PayloadLimits = { text: 240, messages: 6 };

/** A model request in a few lines: the header, the system prompt and the latest messages, each cut. */
export function describeRequest(
  label: string,
  request: ModelRequest,
  limits: PayloadLimits = DEFAULT_LIMITS,
): string[] {
  const tools = request.tools.map((tool) => tool.name);
  const stop = request.stopSequences?.length ? `, stop ${JSON.stringify(request.stopSequences)}` : '';
  const lines = [
    `→ ${label}: ${request.messages.length} messages, tool_choice ${request.toolChoice}, ${tools.length} tools${tools.length ? ` (${tools.join(', ')})` : ''}${stop}`,
  ];
  lines.push(`  system: ${quote(request.systemPrompt, limits.text)}`);
  const shown = request.messages.slice(-limits.messages);
  if (request.messages.length > shown.length)
    lines.push(`  … ${request.messages.length - shown.length} earlier messages`);
  const first = request.messages.length - shown.length;
  for (const [index, message] of shown.entries())
    lines.push(`  [${first + index + 1}] ${describeMessage(message, limits.text)}`);
  return lines;
}

function describeMessage(message: Message, max: number): string {
  const parts = message.content.map((part) => {
    switch (part.type) {
      case 'text':
        return quote(part.text, max);
      case 'thinking':
        return `thinking ${quote(part.text, max)}`;
      case 'tool-call':
        return `call ${part.toolName} ${cutText(shownJson(part.arguments), max).text}`;
      case 'tool-result':
        return `result of ${part.toolName}${part.isError ? ' (error)' : ''} ${quote(part.content, max)}`;
    }
    return '';
  });
  return `${message.role}: ${parts.join(' | ')}`;
}

/** Collects a streamed response for one summary line, without changing the chunks. */
export class ResponseSummary {
  #text = '';
  #thinking = '';
  #calls: string[] = [];
  #retries: string[] = [];
  #inputTokens = 0;
  #outputTokens = 0;
  #finish = '(none)';

  /** Notes a chunk. */
  add(chunk: ModelChunk): void {
    switch (chunk.type) {
      case 'text-delta':
        this.#text += chunk.text;
        break;
      case 'thinking-delta':
        this.#thinking += chunk.text;
        break;
      case 'tool-call':
        this.#calls.push(`${chunk.toolName} ${chunk.input}`);
        break;
      case 'usage':
        this.#inputTokens += chunk.usage.inputTokens ?? 0;
        this.#outputTokens += chunk.usage.outputTokens ?? 0;
        break;
      case 'finish':
        this.#finish = chunk.rawReason ? `${chunk.reason} (${chunk.rawReason})` : chunk.reason;
        break;
      case 'retry':
        this.#retries.push(
          `retry ${chunk.attempt} in ${formatDuration(chunk.delayMs)} after ${chunk.error.code}: ${chunk.error.message}${chunk.discardOutput ? ' (output discarded)' : ''}`,
        );
        break;
    }
  }

  /** The summary: header, then the text, thinking and calls, each cut. */
  lines(label: string, durationMs: number, limits: PayloadLimits = DEFAULT_LIMITS): string[] {
    const usage = `${formatCount(this.#inputTokens)} in / ${formatCount(this.#outputTokens)} out`;
    const lines = [`← ${label} in ${formatDuration(durationMs)}: finish ${this.#finish}, tokens ${usage}`];
    for (const retry of this.#retries) lines.push(`  ${retry}`);
    if (this.#thinking) lines.push(`  thinking: ${quote(this.#thinking, limits.text)}`);
    if (this.#text) lines.push(`  text: ${quote(this.#text, limits.text)}`);
    for (const call of this.#calls) lines.push(`  tool call: ${cutText(call, limits.text).text}`);
    return lines;
  }
}

/** Text as a JSON string, cut, with the count of what was cut. */
export function quote(text: string, max: number): string {
  // Redacted before it is cut: a cut inside a URL's password would leave its start out of the redactor's sight.
  const { text: kept, cut } = cutText(redactUrlCredentials(text), max);
  return `${JSON.stringify(kept)}${cut > 0 ? ` (+${formatCount(cut)} chars)` : ''}`;
}

/** A value as JSON, each string's URL passwords hidden before the JSON is cut (see quote). */
function shownJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, field: unknown) =>
      typeof field === 'string' ? redactUrlCredentials(field) : field,
    ) ?? ''
  );
}
