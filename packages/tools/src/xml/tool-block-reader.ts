import { BlockBodyScanner } from './block-body-scanner.js';
import { stripCodeFence } from './code-fence.js';
import { type DecodedToolBlock, decodeToolBlock } from './decode-tool-block.js';
import { peekToolName, TOOL_NAME_PEEK_LENGTH } from './peek-tool-name.js';
import type { XmlParserEvent } from './xml-parser-event.js';

/**
 * Reads one open tool block from the stream: collects its body (as a list of pieces, joined once at the
 * end, so that a large block costs linear time however finely it is chunked), reports its tool name
 * early, enforces the size limit, and decodes it when it closes or when the stream ends inside it.
 */
export class ToolBlockReader {
  private readonly openTag: string;
  private readonly maxBlockBytes: number;
  private readonly scanner = new BlockBodyScanner();
  private pieces: string[] = [];
  private length = 0;
  private head = '';
  private named = false;
  private oversized = false;

  /** `openTag` is the tag that opened the block (`<tool>` or `<tool_call>`). */
  constructor(openTag: string, maxBlockBytes: number) {
    this.openTag = openTag;
    this.maxBlockBytes = maxBlockBytes;
  }

  /** Reads `text` from `from`; returns the index just past the block's closing tag, or -1 if it is still open. */
  read(text: string, from: number, events: XmlParserEvent[]): number {
    const end = this.scanner.scan(text, from);
    this.take(text.slice(from, end === -1 ? text.length : end), events);
    if (end === -1) {
      this.enforceLimit(this.length - this.scanner.pendingLength, events);
      return -1;
    }
    const bodyLength = this.length - this.scanner.closerLength;
    this.enforceLimit(bodyLength, events);
    if (this.oversized) return end;
    const block = this.pieces.join('');
    this.emit(decodeToolBlock(block.slice(0, bodyLength), this.tagName), this.openTag + block, events);
    return end;
  }

  /**
   * Decodes the block when the stream ended inside it (a stop sequence on `</tool>`, or max tokens). A
   * structurally whole body is decoded; a body cut off in the middle is an error, not a guess. If a
   * closing tag was seen inside a string and the text before it is a finished body, an unbalanced quote
   * hid the real end of the block: the text after that tag is returned, to be read again as message text.
   */
  finish(events: XmlParserEvent[]): string | undefined {
    // A closing tag cut off at the end of the stream (`</to`) is not part of the body.
    const bodyLength = this.length - this.scanner.pendingLength;
    this.enforceLimit(bodyLength, events);
    if (this.oversized) return undefined;
    const block = this.pieces.join('');
    const body = block.slice(0, bodyLength);
    const decodable = this.scanner.complete || body.trim() === '';
    const whole = decodable ? decodeToolBlock(body, this.tagName) : undefined;
    if (whole?.ok) {
      this.emit(whole, this.openTag + block, events);
      return undefined;
    }
    const hidden = this.scanner.hiddenCloser;
    const beforeHidden = hidden === undefined ? '' : block.slice(0, hidden.start);
    // Only a body that looks finished before the hidden tag ends there; a file write cut off by max
    // tokens after a `</tool>` in its content must not be run with half its content.
    const recovered = /[}>]$/.test(stripCodeFence(beforeHidden))
      ? decodeToolBlock(beforeHidden, this.tagName)
      : undefined;
    if (hidden !== undefined && recovered?.ok) {
      const end = hidden.start + hidden.length;
      this.emit(recovered, this.openTag + block.slice(0, end), events);
      return block.slice(end);
    }
    const reason = whole?.reason ?? this.cutOffReason();
    events.push({ type: 'parse-error', raw: this.openTag + block, reason });
    return undefined;
  }

  private get tagName(): string {
    return this.openTag.slice(1, -1);
  }

  private take(piece: string, events: XmlParserEvent[]): void {
    if (this.oversized || piece === '') return;
    this.pieces.push(piece);
    this.length += piece.length;
    // The peek window never exceeds the size limit, so an oversized block peeks the same text however it is chunked.
    const peekLength = Math.min(TOOL_NAME_PEEK_LENGTH, this.maxBlockBytes);
    if (this.named || this.head.length >= peekLength) return;
    this.head += piece.slice(0, peekLength - this.head.length);
    const toolName = peekToolName(this.head);
    if (toolName === undefined) return;
    this.named = true;
    events.push({ type: 'tool-name', toolName });
  }

  private enforceLimit(bodyLength: number, events: XmlParserEvent[]): void {
    if (this.oversized || bodyLength <= this.maxBlockBytes) return;
    this.oversized = true;
    const raw = (this.openTag + this.pieces.join('')).slice(0, this.openTag.length + this.maxBlockBytes);
    this.pieces = [];
    const reason =
      `The ${this.openTag} block is longer than ${this.maxBlockBytes} characters, the most one call may send, ` +
      'and was not run. Send the content in smaller parts, one call each.';
    events.push({ type: 'parse-error', raw, reason });
  }

  private emit(decoded: DecodedToolBlock, raw: string, events: XmlParserEvent[]): void {
    if (!decoded.ok) {
      events.push({ type: 'parse-error', raw, reason: decoded.reason });
      return;
    }
    if (!this.named) events.push({ type: 'tool-name', toolName: decoded.toolName });
    const { serverName, toolName, repaired } = decoded;
    events.push({ type: 'tool-call', serverName, toolName, arguments: decoded.arguments, raw, repaired });
  }

  private cutOffReason(): string {
    const where = this.scanner.insideString ? 'inside a JSON string' : 'before its content was complete';
    return (
      `The ${this.openTag} block was cut off ${where}: the response ended before the block did, so it was not run. ` +
      'Send the whole call again; if it is long, split the work into smaller calls.'
    );
  }
}
