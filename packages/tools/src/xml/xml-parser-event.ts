/** Message text outside thinking and tool blocks, streamed as soon as it cannot be the start of a tag. */
export interface XmlTextEvent {
  type: 'text';
  /** The text, never empty. */
  text: string;
}

/** A `<thinking>` (or `<think>`) section opened. */
export interface XmlThinkingStartEvent {
  type: 'thinking-start';
}

/** A piece of the open thinking section's text. */
export interface XmlThinkingContentEvent {
  type: 'thinking-content';
  /** The text, never empty; `<` and `>` inside thinking are kept as they are. */
  text: string;
}

/** The open thinking section closed (or the stream ended inside it). */
export interface XmlThinkingEndEvent {
  type: 'thinking-end';
}

/** A `<tool>` (or `<tool_call>`) block opened; a `tool-call` or `parse-error` for it always follows. */
export interface XmlToolStartEvent {
  type: 'tool-start';
}

/**
 * The open block's tool name, once per block, as soon as it can be read from the start of the block (at
 * the latest just before its `tool-call`). The `tool-call`'s `toolName` is the authoritative one.
 */
export interface XmlToolNameEvent {
  type: 'tool-name';
  /** The tool name, trimmed. */
  toolName: string;
}

/** A block decoded into a tool call. */
export interface XmlToolCallEvent {
  type: 'tool-call';
  /** The `server_name` the model gave, or `"local"` when it gave none. */
  serverName: string;
  /** The tool to call, trimmed. */
  toolName: string;
  /** The decoded arguments (`{}` when the block gave none). */
  arguments: unknown;
  /** The whole block as the model wrote it, from the opening tag to the closing tag (if it had one). */
  raw: string;
  /** Whether broken JSON had to be repaired (with jsonrepair) to decode the block. */
  repaired: boolean;
}

/** A block that could not be decoded; no `tool-call` is emitted for it. */
export interface XmlParseErrorEvent {
  type: 'parse-error';
  /** The block as the model wrote it (cut at the size limit when the block was too large). */
  raw: string;
  /** What is wrong, phrased so that the model can correct its call when it is shown this text. */
  reason: string;
}

/** Everything `XmlToolParser` reports about a model's streamed text, in the order it happens. */
export type XmlParserEvent =
  | XmlTextEvent
  | XmlThinkingStartEvent
  | XmlThinkingContentEvent
  | XmlThinkingEndEvent
  | XmlToolStartEvent
  | XmlToolNameEvent
  | XmlToolCallEvent
  | XmlParseErrorEvent;
