import { classifyBlockStart, isWhitespace } from './block-start.js';
import { fenceOpenerStart, heldFenceStart } from './code-fence.js';
import {
  matchTagAt,
  STREAM_OPEN_TAGS,
  THINKING_CLOSE_TAGS,
  THINKING_OPEN_TAGS,
  TOOL_OPEN_TAGS,
} from './protocol-tags.js';
import { ToolBlockReader } from './tool-block-reader.js';
import type { XmlParserEvent } from './xml-parser-event.js';

/** Options of `XmlToolParser`. */
export interface XmlToolParserOptions {
  /**
   * The largest tool block body accepted, counted in UTF-16 code units (bytes, for ASCII text). A larger
   * block becomes a `parse-error` as soon as it crosses the limit, the rest of it is skipped, and the
   * text after it streams on. Default: 10 MB.
   */
  maxBlockBytes?: number;
}

/** The default `maxBlockBytes`: 10 MB. */
const DEFAULT_MAX_BLOCK_BYTES = 10 * 1024 * 1024;

/** Whitespace allowed between a fenced block and the fence that closes it (or the next fenced block). */
const MAX_FENCE_GAP = 64;

const THINKING_TAGS: readonly string[] = THINKING_OPEN_TAGS;

type Mode = 'text' | 'thinking' | 'block' | 'after-fenced-block';

/**
 * Splits a model's streamed text into message text, thinking and `<tool>` calls (the XML tool protocol
 * for models without native function calling). Message text is emitted at once; only what may be the
 * start of a tag (`<too`), of a code fence around a block, or a `<tool>` tag whose body has not started
 * yet is held back until the next chunk. The events are the same however the text is split into chunks
 * (after merging adjacent `text` and adjacent `thinking-content` events), and the cost is linear.
 *
 * `feed` and `flush` never throw: a block that cannot be decoded becomes a `parse-error` event. `flush`
 * ends the stream and resets the parser, so one instance can parse one response after another; `reset`
 * drops a half-read response (e.g. after a cancelled request).
 */
export class XmlToolParser {
  private readonly maxBlockBytes: number;
  private mode: Mode = 'text';
  /** Text held back at the end of the last chunk; always short (a partial tag or fence, some whitespace). */
  private carry = '';
  private block: ToolBlockReader | undefined;
  /** Whether the open block sat in a code fence, whose closing fence must then be dropped too. */
  private blockFenced = false;
  /** Set by `flush`: no more text will come, so nothing may be held back any longer. */
  private atEnd = false;

  constructor(options: XmlToolParserOptions = {}) {
    this.maxBlockBytes = options.maxBlockBytes ?? DEFAULT_MAX_BLOCK_BYTES;
  }

  /** Reads the next chunk of the stream and returns the events it completes. */
  feed(chunk: string): XmlParserEvent[] {
    const events: XmlParserEvent[] = [];
    const buffer = this.carry + chunk;
    this.carry = '';
    this.read(buffer, events);
    return events;
  }

  /**
   * Ends the stream: emits held-back text, closes an open thinking section and decodes a block the
   * stream ended inside (or reports why it cannot be). Then resets the parser for the next response.
   */
  flush(): XmlParserEvent[] {
    const events: XmlParserEvent[] = [];
    this.atEnd = true;
    const buffer = this.carry;
    this.carry = '';
    this.read(buffer, events);
    while (this.mode === 'block' && this.block !== undefined) {
      const rest = this.block.finish(events);
      this.closeBlock();
      if (rest !== undefined) this.read(rest, events);
    }
    if (this.mode === 'thinking') events.push({ type: 'thinking-end' });
    this.reset();
    return events;
  }

  /** Forgets everything read so far, without emitting anything. */
  reset(): void {
    this.mode = 'text';
    this.carry = '';
    this.block = undefined;
    this.blockFenced = false;
    this.atEnd = false;
  }

  private read(buffer: string, events: XmlParserEvent[]): void {
    let position = 0;
    while (position < buffer.length) {
      if (this.mode === 'text') position = this.readText(buffer, position, events);
      else if (this.mode === 'thinking') position = this.readThinking(buffer, position, events);
      else if (this.mode === 'block') position = this.readBlock(buffer, position, events);
      else position = this.readAfterFencedBlock(buffer, position, events);
    }
  }

  private readText(buffer: string, start: number, events: XmlParserEvent[]): number {
    let from = start;
    for (;;) {
      const tagStart = buffer.indexOf('<', from);
      if (tagStart === -1) return this.holdText(buffer, start, buffer.length, events);
      const tag = matchTagAt(buffer, tagStart, STREAM_OPEN_TAGS);
      if (tag === 'partial' && !this.atEnd) return this.holdText(buffer, start, tagStart, events);
      if (tag === undefined || tag === 'partial') {
        from = tagStart + 1;
        continue;
      }
      const bodyStart = tagStart + tag.length;
      if (THINKING_TAGS.includes(tag)) {
        this.emitText(buffer.slice(start, tagStart), events);
        events.push({ type: 'thinking-start' });
        this.mode = 'thinking';
        return bodyStart;
      }
      const blockStart = classifyBlockStart(buffer, bodyStart, this.atEnd);
      if (blockStart === 'undecided') return this.holdText(buffer, start, tagStart, events);
      if (blockStart === 'text') {
        from = tagStart + 1;
        continue;
      }
      const fenceStart = fenceOpenerStart(buffer, start, tagStart);
      this.emitText(buffer.slice(start, fenceStart === -1 ? tagStart : fenceStart), events);
      this.openBlock(tag, fenceStart !== -1, events);
      return bodyStart;
    }
  }

  /** Emits the text from `start`, holding back from `end` (and any fence opener just before it) to the next chunk. */
  private holdText(buffer: string, start: number, end: number, events: XmlParserEvent[]): number {
    const held = this.atEnd ? end : heldFenceStart(buffer, start, end);
    this.emitText(buffer.slice(start, held), events);
    this.carry = buffer.slice(held);
    return buffer.length;
  }

  private readThinking(buffer: string, start: number, events: XmlParserEvent[]): number {
    let from = start;
    for (;;) {
      const tagStart = buffer.indexOf('<', from);
      if (tagStart === -1) {
        this.emitThinking(buffer.slice(start), events);
        return buffer.length;
      }
      const tag = matchTagAt(buffer, tagStart, THINKING_CLOSE_TAGS);
      if (tag === 'partial' && !this.atEnd) {
        this.emitThinking(buffer.slice(start, tagStart), events);
        this.carry = buffer.slice(tagStart);
        return buffer.length;
      }
      if (tag === undefined || tag === 'partial') {
        from = tagStart + 1;
        continue;
      }
      this.emitThinking(buffer.slice(start, tagStart), events);
      events.push({ type: 'thinking-end' });
      this.mode = 'text';
      return tagStart + tag.length;
    }
  }

  private readBlock(buffer: string, start: number, events: XmlParserEvent[]): number {
    const end = this.block?.read(buffer, start, events) ?? -1;
    if (end === -1) return buffer.length;
    this.closeBlock();
    return end;
  }

  /**
   * After a block that sat in a code fence: drops the closing fence, or opens the next block of the
   * same fence. Anything else is message text again.
   */
  private readAfterFencedBlock(buffer: string, start: number, events: XmlParserEvent[]): number {
    const limit = Math.min(buffer.length, start + MAX_FENCE_GAP + 1);
    let index = start;
    while (index < limit && isWhitespace(buffer.charCodeAt(index))) index++;
    if (index - start > MAX_FENCE_GAP) return this.resumeText(start);
    const next = buffer.slice(index, index + 3);
    if (next === '```') {
      this.mode = 'text';
      return index + 3;
    }
    const tag = next.startsWith('<') ? matchTagAt(buffer, index, TOOL_OPEN_TAGS) : undefined;
    const isTag = tag !== undefined && tag !== 'partial';
    const blockStart = isTag ? classifyBlockStart(buffer, index + tag.length, this.atEnd) : undefined;
    if (isTag && blockStart === 'block') {
      this.openBlock(tag, true, events);
      return index + tag.length;
    }
    const undecided = next === '' || next === '`' || next === '``' || tag === 'partial' || blockStart === 'undecided';
    if (undecided && !this.atEnd) {
      this.carry = buffer.slice(start);
      return buffer.length;
    }
    return this.resumeText(start);
  }

  private resumeText(position: number): number {
    this.mode = 'text';
    return position;
  }

  private openBlock(openTag: string, fenced: boolean, events: XmlParserEvent[]): void {
    events.push({ type: 'tool-start' });
    this.block = new ToolBlockReader(openTag, this.maxBlockBytes);
    this.blockFenced = fenced;
    this.mode = 'block';
  }

  private closeBlock(): void {
    this.mode = this.blockFenced ? 'after-fenced-block' : 'text';
    this.block = undefined;
    this.blockFenced = false;
  }

  private emitText(text: string, events: XmlParserEvent[]): void {
    if (text !== '') events.push({ type: 'text', text });
  }

  private emitThinking(text: string, events: XmlParserEvent[]): void {
    if (text !== '') events.push({ type: 'thinking-content', text });
  }
}
