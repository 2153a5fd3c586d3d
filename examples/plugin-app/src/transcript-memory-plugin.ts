// A plugin that replaces a service rather than adding tools: the conversation memory. Its memory writes
// every message to a JSON-lines transcript as it is added, so a run can be read back (or tailed) while it
// goes on. The file is a resource, so the plugin opens it in `init` and closes it in `dispose`.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Message, Plugin } from '@agentloop/core';
import { ConversationMemory, definePlugin, TOKENS } from '@agentloop/core';

/** A ConversationMemory that also appends each message to a transcript file, one JSON object a line. */
export class TranscriptMemory extends ConversationMemory {
  #file: number | undefined;

  /** Starts writing to `path` (appending to what is there). */
  open(path: string): void {
    this.#file = openSync(path, 'a');
  }

  /** Stops writing; later messages are kept in memory only. */
  close(): void {
    if (this.#file !== undefined) closeSync(this.#file);
    this.#file = undefined;
  }

  override append(...messages: Message[]): void {
    super.append(...messages);
    if (this.#file === undefined) return;
    for (const message of messages) writeSync(this.#file, `${JSON.stringify(message)}\n`);
  }
}

/** The plugin: registers a TranscriptMemory under `TOKENS.Memory`, writing to `path` between init and dispose. */
export function transcriptMemoryPlugin(path: string): Plugin {
  const memory = new TranscriptMemory();
  return definePlugin({
    name: 'transcript-memory',
    // One memory for every agent the container makes: the one transcript file is opened in init.
    register: (container) => container.register(TOKENS.Memory, () => memory),
    init: () => memory.open(path),
    dispose: () => memory.close(),
  });
}
