import { TOOL_CLOSE_TAGS } from './protocol-tags.js';

/** Where a closing tag sits in a block body, in characters from the start of the body. */
export interface BodySpan {
  /** Offset of the tag's `<`. */
  start: number;
  /** Length of the tag. */
  length: number;
}

const CDATA_OPEN = '<![CDATA[';
const QUOTE = 34;
const BACKSLASH = 92;
const LESS_THAN = 60;
const GREATER_THAN = 62;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * Finds where a tool block ends in a stream of chunks, one character at a time and never looking back,
 * so that its cost is linear whatever the chunking. The body's syntax is set by its first `{` (JSON) or
 * `<` (XML elements). A closing tag inside a JSON string or a CDATA section does not end the block: a
 * tool call may well write a file that contains `</tool>`. The first such hidden tag is remembered,
 * because when the stream ends without a real closing tag, an unbalanced quote most likely hid it.
 */
export class BlockBodyScanner {
  private syntax: 'unknown' | 'json' | 'xml' = 'unknown';
  private inString = false;
  private escaped = false;
  private depth = 0;
  private inCdata = false;
  private closingBrackets = 0;
  /** The start of a tag being matched across characters (and chunks), e.g. `</to`. */
  private marker = '';
  private markerHidden = false;
  private markerStart = 0;
  private scanned = 0;
  private closer = 0;
  private hidden: BodySpan | undefined;

  /** The first closing tag seen inside a JSON string or CDATA section, if any. */
  get hiddenCloser(): BodySpan | undefined {
    return this.hidden;
  }

  /** Length of the closing tag that ended the block (0 while it is open). */
  get closerLength(): number {
    return this.closer;
  }

  /** How many scanned characters may still turn out to be the closing tag rather than body. */
  get pendingLength(): number {
    return this.markerHidden ? 0 : this.marker.length;
  }

  /** Whether the body read so far is structurally whole: a JSON value closed, or no CDATA left open. */
  get complete(): boolean {
    if (this.syntax === 'json') return !this.inString && this.depth <= 0;
    return this.syntax === 'xml' && !this.inCdata;
  }

  /** Whether the stream stopped inside a JSON string. */
  get insideString(): boolean {
    return this.inString;
  }

  /** Reads `text` from `from`; returns the index just past the closing tag, or -1 if the block is still open. */
  scan(text: string, from: number): number {
    const base = this.scanned - from;
    for (let index = from; index < text.length; index++) {
      if (this.marker !== '') {
        const step = this.extendMarker(text.charAt(index));
        if (step === 'closed') {
          this.scanned = base + index + 1;
          return index + 1;
        }
        if (step === 'taken') continue;
      }
      const code = text.charCodeAt(index);
      if (this.syntax === 'unknown') {
        // Skips a code fence's backticks and language until the body's syntax shows.
        if (code === OPEN_BRACE) this.syntax = 'json';
        else if (code === LESS_THAN) this.syntax = 'xml';
        else continue;
      }
      if (this.syntax === 'json') this.readJson(code, base + index);
      else this.readXml(code, base + index);
    }
    this.scanned = base + text.length;
    return -1;
  }

  private readJson(code: number, offset: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (code === BACKSLASH) this.escaped = true;
      else if (code === QUOTE) this.inString = false;
      else if (code === LESS_THAN && this.hidden === undefined) this.startMarker(offset, true);
      return;
    }
    if (code === QUOTE) this.inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) this.depth++;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) this.depth--;
    else if (code === LESS_THAN) this.startMarker(offset, false);
  }

  private readXml(code: number, offset: number): void {
    if (!this.inCdata) {
      if (code === LESS_THAN) this.startMarker(offset, false);
      return;
    }
    if (code === CLOSE_BRACKET) {
      this.closingBrackets++;
      return;
    }
    if (code === GREATER_THAN && this.closingBrackets >= 2) this.inCdata = false;
    else if (code === LESS_THAN && this.hidden === undefined) this.startMarker(offset, true);
    this.closingBrackets = 0;
  }

  private startMarker(offset: number, hidden: boolean): void {
    this.marker = '<';
    this.markerHidden = hidden;
    this.markerStart = offset;
  }

  /** Feeds one more character to the tag being matched; 'rejected' means the caller must read it normally. */
  private extendMarker(character: string): 'taken' | 'closed' | 'rejected' {
    const candidate = this.marker + character;
    const opensCdata = !this.markerHidden && this.syntax === 'xml';
    this.marker = '';
    if ((TOOL_CLOSE_TAGS as readonly string[]).includes(candidate)) {
      if (!this.markerHidden) {
        this.closer = candidate.length;
        return 'closed';
      }
      this.hidden = { start: this.markerStart, length: candidate.length };
      return 'taken';
    }
    if (opensCdata && candidate === CDATA_OPEN) {
      this.inCdata = true;
      this.closingBrackets = 0;
      return 'taken';
    }
    const isPrefix =
      TOOL_CLOSE_TAGS.some((tag) => tag.startsWith(candidate)) || (opensCdata && CDATA_OPEN.startsWith(candidate));
    if (!isPrefix) return 'rejected';
    this.marker = candidate;
    return 'taken';
  }
}
