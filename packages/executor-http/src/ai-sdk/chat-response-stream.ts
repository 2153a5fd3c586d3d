import type { AgentEvent } from '@agentloop/core';
import type { RunEnd, RunListener } from '../runs/run-listener.js';
import type { RunAttachment } from '../runs/run-manager.js';
import type { UiChunkMapper } from './ui-chunk-mapper.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

/** The headers of an AI SDK 6 UI message stream response. */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  'X-Vercel-AI-UI-Message-Stream': 'v1',
};

/** One chunk as the AI SDK's transport reads it: a server-sent event whose data is the chunk's JSON. */
export function encodeUiMessageChunk(chunk: UiMessageChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

const DONE = 'data: [DONE]\n\n';
/** How often a response that has nothing to say says it is alive. */
export const KEEP_ALIVE_MS = 15_000;
const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * One `POST /api/chat` response: a run listener that writes the run's events as UI message chunks to
 * `body`, and ends it when the run ends or when the run waits on the user's approval (detaching with
 * `done`, so the run goes on and keeps its events for the next request). A client that goes away detaches
 * with `dropped` (the handler's `onDisconnect` decides what that does to the run).
 *
 * Hand it the run's attachment with `attached` once `start` or `attach` returned it: an approval can be
 * waiting already in the events `attach` hands over, and the response only ends there once it can detach.
 */
export class ChatResponseStream implements RunListener {
  readonly body: ReadableStream<Uint8Array>;
  readonly #mapper: UiChunkMapper;
  readonly #encoder = new TextEncoder();
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #attachment: RunAttachment | undefined;
  readonly #reportError: ((error: unknown) => void) | undefined;
  readonly #sessionId: string | undefined;
  readonly #keepAlive: ReturnType<typeof setInterval>;
  #open = true;
  #dropped = false;

  /**
   * `signal` is the request's (aborted when the client goes away); `reportError` gets what failed a run
   * before its loop began, which the client is told only in general terms; `sessionId` names the session
   * in the advice of a gap (`data-agentloop-gap`).
   */
  constructor(
    mapper: UiChunkMapper,
    options: { signal?: AbortSignal; reportError?: (error: unknown) => void; sessionId?: string } = {},
  ) {
    this.#mapper = mapper;
    this.#reportError = options.reportError;
    this.#sessionId = options.sessionId;
    // A tool can run for minutes without an event; proxies and browsers drop a connection that says nothing
    // for that long, so an SSE comment, which the SDK's parser skips, goes out meanwhile.
    this.#keepAlive = setInterval(() => {
      if (this.#open) this.#controller.enqueue(this.#encoder.encode(KEEP_ALIVE));
    }, KEEP_ALIVE_MS);
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#drop(),
    });
    options.signal?.addEventListener('abort', () => this.#drop(), { once: true });
  }

  /** True until the response ended (the run ended or waits on the user, or the client went away). */
  get open(): boolean {
    return this.#open;
  }

  /** Writes chunks, as long as the response is open. */
  write(chunks: readonly UiMessageChunk[]): void {
    if (!this.#open) return;
    for (const chunk of chunks) this.#controller.enqueue(this.#encoder.encode(encodeUiMessageChunk(chunk)));
  }

  onEvent(event: AgentEvent): void {
    this.write(this.#mapper.map(event));
    this.#pauseIfWaiting();
  }

  onEnd(end: RunEnd): void {
    if (end.error !== undefined) this.#reportError?.(end.error);
    this.write(this.#mapper.end(end));
    this.#close();
  }

  /**
   * Takes the run's attachment: the response can detach from here on. When the run dropped events before
   * this response attached, says so with a `data-agentloop-gap` part, before a pause can end the response.
   */
  attached(attachment: RunAttachment): void {
    this.#attachment = attachment;
    if (attachment.droppedEvents > 0) this.write([this.#gap(attachment.droppedEvents)]);
    if (this.#dropped) attachment.detach('dropped');
    else if (!this.#open) attachment.detach('done');
    else this.#pauseIfWaiting();
  }

  /** Ends the response without chunks: the request failed before it could stream (a 409, a 503). */
  abandon(): void {
    clearInterval(this.#keepAlive);
    this.#open = false;
  }

  /** Ends the response with an error chunk, for a request that cannot go on (nothing is attached). */
  fail(errorText: string): void {
    this.write([
      { type: 'error', errorText },
      { type: 'finish', finishReason: 'error' },
    ]);
    this.#close();
  }

  #gap(droppedEvents: number): UiMessageChunk {
    const messages = `GET /api/chat/${this.#sessionId ?? ':id'}/messages`;
    // The SDK cannot take back or fill in a message's parts, so the chat is told to read the whole
    // conversation again instead of showing a message with a silent hole in it.
    return {
      type: 'data-agentloop-gap',
      data: {
        droppedEvents,
        message: `${droppedEvents} of the run's events were dropped while no response was attached, so this message misses part of the run: reload the conversation from ${messages}.`,
      },
    };
  }

  #pauseIfWaiting(): void {
    if (!this.#open || !this.#attachment || !this.#mapper.waitingOnUser) return;
    this.write(this.#mapper.pause());
    this.#close();
    this.#attachment.detach('done');
  }

  #close(): void {
    clearInterval(this.#keepAlive);
    if (!this.#open) return;
    this.#controller.enqueue(this.#encoder.encode(DONE));
    this.#open = false;
    this.#controller.close();
  }

  #drop(): void {
    clearInterval(this.#keepAlive);
    if (!this.#open) return;
    this.#open = false;
    this.#dropped = true;
    this.#attachment?.detach('dropped');
  }
}
