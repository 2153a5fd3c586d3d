import { createHash } from 'node:crypto';
import { formatXmlToolResult, wrapUpNotice, xmlNoToolCallReminder } from '@agentloop/prompts';
import type { AssistantMessage, Message, ModelChunk } from '@agentloop/spec';
import type { ToolCallOutcome, ToolLookup, XmlParserEvent } from '@agentloop/tools';
import { XmlToolParser } from '@agentloop/tools';
import { resolveServerTool } from '@agentloop/tools/internal';
import { decodeNativeChunk } from './native-protocol.js';
import type { StepDecoder, StepEvent, ToolProtocolAdapter } from './tool-protocol.js';

// Stopping after the block saves tokens and keeps the model from writing a second block or the result
// itself. The stop sequence is not part of the output: the decoder decodes the cut-off block at flush.
const STOP_SEQUENCES = ['</tool>', '</tool_call>'] as const;

/**
 * Tools are described in the system prompt and called by a `<tool>` block in the model's text. History
 * keeps the text with its block; results go back as a user message of `<tool_result>` blocks.
 */
export const xmlToolProtocol: ToolProtocolAdapter = {
  name: 'xml',

  requestTools(_tools) {
    return { tools: [], toolChoice: 'auto', stopSequences: STOP_SEQUENCES };
  },

  createDecoder(tools, callIdSeed): StepDecoder {
    return new XmlStepDecoder(tools, callIdSeed);
  },

  assistantMessage(step, parts, rawText): AssistantMessage {
    // Reasoning the provider returned natively (with a signature) must go back; `<thinking>` text is in rawText.
    const providerThinking = parts.filter((part) => part.type === 'thinking' && (part.signature || part.redactedData));
    // Chat Completions servers report a stop sequence as a plain `stop`, so any step with a call is checked.
    const text = step.toolCalls.length > 0 ? closeCutBlock(rawText) : rawText;
    return { role: 'assistant', content: [...providerThinking, ...(text ? [{ type: 'text' as const, text }] : [])] };
  },

  resultMessages(outcomes: readonly ToolCallOutcome[]): Message[] {
    if (outcomes.length === 0) return [];
    // A user message holds text only: a result's images stay out, described by its content.
    const text = outcomes
      .map((outcome) =>
        formatXmlToolResult({
          toolName: outcome.toolName,
          content: outcome.content,
          isError: outcome.status === 'error',
        }),
      )
      .join('\n\n');
    return [{ role: 'user', content: [{ type: 'text', text }] }];
  },

  reminder: xmlNoToolCallReminder,

  wrapUpNotice: () => wrapUpNotice('xml'),
};

/** Feeds the model's text through the streaming `<tool>` parser; other chunks pass as in native mode. */
class XmlStepDecoder implements StepDecoder {
  readonly #tools: ToolLookup;
  #parser = new XmlToolParser();
  #pendingId: string | undefined;
  // XML calls have no ids of their own; these need to be unique for events and history, and the same when
  // the response is decoded again, so they come from the response's seed (run id and model call).
  readonly #idPrefix: string;
  #callCount = 0;

  constructor(tools: ToolLookup, callIdSeed: string) {
    this.#tools = tools;
    this.#idPrefix = `xml_${createHash('sha256').update(callIdSeed).digest('hex').slice(0, 8)}_`;
  }

  decode(chunk: ModelChunk): readonly StepEvent[] {
    if (chunk.type === 'text-delta') return this.#translate(this.#parser.feed(chunk.text));
    if (chunk.type === 'retry' && chunk.discardOutput) {
      this.#parser.reset();
      this.#pendingId = undefined;
    }
    return decodeNativeChunk(chunk);
  }

  flush(): readonly StepEvent[] {
    return this.#translate(this.#parser.flush());
  }

  #translate(events: readonly XmlParserEvent[]): StepEvent[] {
    const out: StepEvent[] = [];
    for (const event of events) {
      switch (event.type) {
        case 'text':
          out.push({ type: 'text-delta', text: event.text });
          break;
        case 'thinking-start':
          out.push({ type: 'thinking-delta', text: '' });
          break;
        case 'thinking-content':
          out.push({ type: 'thinking-delta', text: event.text });
          break;
        case 'thinking-end':
          out.push({ type: 'thinking-end' });
          break;
        case 'tool-name':
          this.#pendingId = this.#nextCallId();
          out.push({ type: 'tool-call-start', toolCallId: this.#pendingId, toolName: event.toolName });
          break;
        case 'tool-call': {
          // `server_name` routes the call: a block naming a server never runs a local tool of that name.
          const route = resolveServerTool(this.#tools.list(), event.serverName, event.toolName);
          out.push({
            type: 'tool-call',
            call: {
              type: 'tool-call',
              toolCallId: this.#takeId(),
              toolName: route.ok ? route.toolName : event.toolName,
              arguments: event.arguments,
              repaired: event.repaired,
              ...(route.ok ? {} : { problem: { code: 'unknown_tool', message: route.message } }),
            },
          });
          break;
        }
        case 'parse-error':
          out.push({
            type: 'tool-call',
            call: {
              type: 'tool-call',
              toolCallId: this.#takeId(),
              toolName: guessToolName(event.raw),
              arguments: {},
              problem: { code: 'parse_error', message: event.reason },
            },
          });
          break;
        case 'tool-start':
          break;
      }
    }
    return out;
  }

  #takeId(): string {
    const id = this.#pendingId ?? this.#nextCallId();
    this.#pendingId = undefined;
    return id;
  }

  #nextCallId(): string {
    this.#callCount += 1;
    return `${this.#idPrefix}${this.#callCount}`;
  }
}

function guessToolName(raw: string): string {
  return (
    /"(?:tool_name|name)"\s*:\s*"([\w-]+)"/.exec(raw)?.[1] ??
    /<(?:tool_name|name)>\s*([\w-]+)/.exec(raw)?.[1] ??
    'unknown'
  );
}

// The stop sequence is cut from the output; history gets it back so the model sees well-formed blocks.
function closeCutBlock(text: string): string {
  const open = Math.max(text.lastIndexOf('<tool>'), text.lastIndexOf('<tool_call>'));
  const close = Math.max(text.lastIndexOf('</tool>'), text.lastIndexOf('</tool_call>'));
  if (open <= close) return text;
  return `${text}${text.startsWith('<tool_call>', open) ? '</tool_call>' : '</tool>'}`;
}
