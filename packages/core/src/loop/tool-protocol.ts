import type {
  AssistantMessage,
  FinishReason,
  Message,
  ModelChunk,
  ThinkingPart,
  ToolCallPart,
  ToolChoice,
  ToolDefinition,
  Usage,
} from '@agentloop/spec';
import type { ToolCallOutcome, ToolFailureCode, ToolLookup } from '@agentloop/tools';

/** How tools reach the model: `auto` picks native where the provider supports it, XML otherwise. */
export type ToolProtocolOption = 'auto' | 'native' | 'xml';

/** Why a call the model sent cannot run; it goes back to the model as an error result instead. */
export interface ToolCallProblem {
  code: Extract<ToolFailureCode, 'invalid_arguments' | 'truncated_arguments' | 'parse_error' | 'unknown_tool'>;
  /** What is wrong, written for the model. */
  message: string;
}

/**
 * A tool call as the model sent it, decoded: a ToolCallPart (what history keeps and what a tool runs
 * with), and, when it cannot run, the problem (broken or cut-off JSON, an undecodable XML block).
 */
export interface ToolCall extends ToolCallPart {
  problem?: ToolCallProblem;
  /** True when the arguments were decoded only after a repair (jsonrepair). */
  repaired?: boolean;
}

/** A model stream decoded for the loop: the provider's chunks with tool calls made whole. */
export type StepEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'thinking-delta'; text: string }
  | { type: 'thinking-end'; part?: Omit<ThinkingPart, 'type' | 'text'> }
  | { type: 'tool-call-start'; toolCallId: string; toolName: string }
  | { type: 'tool-call'; call: ToolCall }
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
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: FinishReason;
  /** The protocol the call was made in: its calls' results go back in it. */
  protocol: ToolProtocolAdapter;
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
  /**
   * A decoder for one model response. `tools` are the tools the run offers: the XML protocol routes a
   * call's `server_name` through them. `callIdSeed` names the response (its run and model call): the XML
   * protocol derives the ids of calls, which have none of their own, from it, so that a call made again
   * (a journal step run again on another worker) gets the id it had.
   */
  createDecoder(tools: ToolLookup, callIdSeed: string): StepDecoder;
  /** The assistant message for history, from the step's ordered parts. */
  assistantMessage(
    step: Omit<ModelStep, 'message' | 'protocol'>,
    parts: AssistantMessage['content'],
    rawText: string,
  ): AssistantMessage;
  /** The messages that carry a step's tool results back to the model. */
  resultMessages(outcomes: readonly ToolCallOutcome[]): Message[];
  /** The reminder sent after a response without a tool call. */
  reminder(consecutive: number): string;
  /** What the model is told before the last call of a run that wraps up: finish now, with a summary. */
  wrapUpNotice(): string;
}
