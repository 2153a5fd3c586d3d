import type { UiMessageChunk } from './ui-message-chunk.js';

/**
 * The text and reasoning parts of one response, and the steps they sit in: numbers the parts, keeps at
 * most one text or reasoning part open (opening one closes the other) and never leaves a part or a step
 * open where the client would see the next part begin or the response end.
 */
export class UiMessageParts {
  #nextPartId = 1;
  #stepOpen = false;
  #textId: string | undefined;
  #reasoningId: string | undefined;

  /** Closes the open step, with its parts, and opens the next one. */
  startStep(): UiMessageChunk[] {
    const closing = this.closeStep();
    this.#stepOpen = true;
    return [...closing, { type: 'start-step' }];
  }

  /** Closes the open step, with its parts; none when no step is open. */
  closeStep(): UiMessageChunk[] {
    if (!this.#stepOpen) return [];
    this.#stepOpen = false;
    return [...this.closeParts(), { type: 'finish-step' }];
  }

  /** A piece of streamed text, in the open text part or a new one. */
  textDelta(delta: string): UiMessageChunk[] {
    return [...this.openText(), { type: 'text-delta', id: this.#textId ?? '', delta }];
  }

  /** A piece of streamed reasoning, in the open reasoning part or a new one. */
  reasoningDelta(delta: string): UiMessageChunk[] {
    return [...this.openReasoning(), { type: 'reasoning-delta', id: this.#reasoningId ?? '', delta }];
  }

  /** A text that arrives whole (an exit's result or message), as a part of its own; none for an empty one. */
  wholeText(text: string): UiMessageChunk[] {
    if (text === '') return [];
    const id = this.#partId('text');
    return [
      ...this.closeParts(),
      { type: 'text-start', id },
      { type: 'text-delta', id, delta: text },
      { type: 'text-end', id },
    ];
  }

  openText(): UiMessageChunk[] {
    if (this.#textId !== undefined) return [];
    const closing = this.closeReasoning();
    this.#textId = this.#partId('text');
    return [...closing, { type: 'text-start', id: this.#textId }];
  }

  closeText(): UiMessageChunk[] {
    if (this.#textId === undefined) return [];
    const id = this.#textId;
    this.#textId = undefined;
    return [{ type: 'text-end', id }];
  }

  openReasoning(): UiMessageChunk[] {
    if (this.#reasoningId !== undefined) return [];
    const closing = this.closeText();
    this.#reasoningId = this.#partId('reasoning');
    return [...closing, { type: 'reasoning-start', id: this.#reasoningId }];
  }

  closeReasoning(): UiMessageChunk[] {
    if (this.#reasoningId === undefined) return [];
    const id = this.#reasoningId;
    this.#reasoningId = undefined;
    return [{ type: 'reasoning-end', id }];
  }

  /** Closes the open text or reasoning part, so that what follows starts parts of its own. */
  closeParts(): UiMessageChunk[] {
    return [...this.closeReasoning(), ...this.closeText()];
  }

  #partId(kind: 'text' | 'reasoning'): string {
    return `${kind}-${this.#nextPartId++}`;
  }
}
