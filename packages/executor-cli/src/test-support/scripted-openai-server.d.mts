/** A scripted model reply. */
export interface ScriptedReply {
  /** Visible text, streamed in chunks of `chunkSize` characters. */
  text?: string;
  chunkSize?: number;
  /** Reasoning, streamed as `reasoning_content`. */
  reasoning?: string;
  /** Tool calls, streamed as `tool_calls` deltas. */
  toolCalls?: { name: string; arguments?: unknown; id?: string }[];
  /** Milliseconds before each chunk. */
  delayMs?: number;
  /** Stop streaming once `afterChars` characters of the text are sent, until `until` settles. */
  hold?: { afterChars: number; until: Promise<unknown> };
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer with this HTTP error status instead. */
  status?: number;
  errorMessage?: string;
}

/** A script entry: a reply, or a function of the request body and its number (1 for the first). */
export type ScriptEntry = ScriptedReply | ((body: any, number: number) => ScriptedReply);

/** The running server. */
export interface ScriptedOpenAIServer {
  /** The base URL, `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /** The request bodies received, in order. */
  readonly requests: any[];
  /** Replies left. */
  readonly remaining: number;
  push(...replies: ScriptEntry[]): void;
  close(): Promise<void>;
}

export function startScriptedOpenAIServer(script?: ScriptEntry[]): Promise<ScriptedOpenAIServer>;
export function replyChunks(reply: ScriptedReply, model?: string, number?: number): unknown[];
