import type {
  AssistantMessage,
  FinishReason,
  Message,
  ModelChunk,
  ThinkingPart,
  ToolChoice,
  ToolDefinition,
  Usage,
} from '@agentloop/spec';

/** A tool call found in a model response, decoded or not. */
export interface StepToolCall {
  toolCallId: string;
  toolName: string;
  /** The decoded arguments; absent when `invalid` says why they could not be decoded. */
  arguments?: unknown;
  /** Why the call cannot run (broken JSON, a cut-off block); goes back to the model as an error result. */
  invalid?: string;
  /**
   * The code of the error result for an invalid call; default `invalid_arguments`. `truncated_arguments`:
   * the arguments were cut off before they were complete, so the call was never run.
   */
  invalidCode?: 'invalid_arguments' | 'truncated_arguments' | 'parse_error';
  /** True when the arguments were decoded only after a repair (jsonrepair). */
  repaired?: boolean;
  providerMetadata?: Record<string, unknown>;
}

/** A model stream decoded for the loop: the provider's chunks with tool calls made whole. */
export type StepEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'thinking-delta'; text: string }
  | { type: 'thinking-end'; part?: Omit<ThinkingPart, 'type' | 'text'> }
  | { type: 'tool-call-start'; toolCallId: string; toolName: string }
  | { type: 'tool-call'; call: StepToolCall }
  | { type: 'usage'; usage: Partial<Usage> }
  | { type: 'finish'; reason: FinishReason }
  | Extract<ModelChunk, { type: 'retry' }>;

/**
 * Turns one response's provider chunks into step events. Synchronous, so decoding adds no async hop per
 * chunk to the loop's hot path.
 */
export interface StepDecoder {
  /** The step events for one chunk (often exactly one). */
  decode(chunk: ModelChunk): readonly StepEvent[];
  /** The events still held back at the end of the response (e.g. a tool block cut off by a stop sequence). */
  flush(): readonly StepEvent[];
}

/** What one model call produced. */
export interface ModelStep {
  /** The assistant message as it goes into history. */
  message: AssistantMessage;
  /** The text the user saw (without tool blocks). */
  text: string;
  /** The tool calls, in order. */
  toolCalls: StepToolCall[];
  usage: Usage;
  finishReason: FinishReason;
}

/** A finished tool call and what the model is told about it. */
export interface ToolCallRecord {
  call: StepToolCall;
  content: string;
  isError: boolean;
}

/**
 * How tools travel between the loop and the model: natively in the API request, or as XML in the text.
 * The loop is the same for both; everything protocol-specific sits behind this interface.
 */
export interface ToolProtocolAdapter {
  readonly name: 'native' | 'xml';
  /** What the request carries for tools. */
  requestTools(tools: readonly ToolDefinition[]): {
    tools: readonly ToolDefinition[];
    toolChoice: ToolChoice;
    stopSequences?: readonly string[];
  };
  /** A decoder for one model response. */
  createDecoder(): StepDecoder;
  /** The assistant message for history, from the step's ordered parts. */
  assistantMessage(
    step: Omit<ModelStep, 'message'>,
    parts: AssistantMessage['content'],
    rawText: string,
  ): AssistantMessage;
  /** The messages that carry a step's tool results back to the model. */
  resultMessages(records: readonly ToolCallRecord[]): Message[];
  /** The reminder sent after a response without a tool call. */
  reminder(consecutive: number): string;
}
