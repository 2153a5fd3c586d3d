import type { StreamLines } from './stream-lines.js';
import { wrapStyledText } from './text-width.js';

/** What Markdown rendering for the terminal gives the line renderer (marked-terminal, in `markdown.ts`). */
export interface MarkdownBlocks {
  /** One line of inline Markdown (emphasis, code spans, links), as terminal text. */
  inline(text: string): string;
  /** A heading line (`## Title`), styled. */
  heading(source: string): string;
  /** One line of a fenced code block, indented and highlighted for its language (none: `''`). */
  code(line: string, language: string): string;
  /** A whole table (its source lines), drawn. */
  table(source: string): string;
  /** Quoted text (already rendered inline), styled as a quote. */
  quote(text: string): string;
  /** A horizontal rule this wide. */
  rule(width: number): string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const TABLE_ROW = /^ {0,3}\|/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/**
 * Renders Markdown a line at a time, for text that arrives as it is written: each complete line is
 * rendered as soon as it ends, in the context of the lines before it (inside a code fence, in a list), so
 * a stream shows formatted text while it is still coming. The rows of a table are held until the table
 * ends, since its columns depend on every row. Blank lines between blocks are kept, one for any run of
 * them, and never at the start or the end; each line of a paragraph stays a line, wrapped to the width.
 */
export class MarkdownLines implements StreamLines {
  #fence: { marker: string; language: string } | undefined;
  #table: string[] = [];
  /** A blank line is due before the next row. */
  #blank = false;
  /** A row was printed: blank lines count from here on. */
  #started = false;
  /** The last content was a list item or a line of one. */
  #inList = false;

  constructor(
    private readonly blocks: MarkdownBlocks,
    private readonly width: number,
  ) {}

  line(source: string): string[] {
    if (this.#fence) return this.#codeLine(source);
    if (this.#table.length > 0) {
      if (TABLE_ROW.test(source) && (this.#table.length > 1 || TABLE_DELIMITER.test(source))) {
        this.#table.push(source);
        return [];
      }
      return [...this.#endTable(), ...this.line(source)];
    }
    if (source.trim() === '') {
      this.#blank = this.#started;
      return [];
    }
    const fence = FENCE.exec(source);
    if (fence) {
      this.#fence = { marker: fence[1] as string, language: fence[2] ?? '' };
      this.#blank = this.#started;
      return [];
    }
    if (TABLE_ROW.test(source)) {
      this.#table = [source];
      return [];
    }
    return this.#rows(this.#render(source));
  }

  end(): string[] {
    return this.#table.length > 0 ? this.#endTable() : [];
  }

  preview(partial: string): string {
    const pending = [...this.#table, partial].join('\n');
    if (pending === '') return '';
    return `${this.#blank && this.#started ? '\n' : ''}${pending}`;
  }

  #render(source: string): string[] {
    if (HEADING.test(source)) {
      this.#inList = false;
      return this.#wrap(this.blocks.heading(source.trim()), '');
    }
    if (RULE.test(source)) {
      this.#inList = false;
      return [this.blocks.rule(Math.min(this.width, 80))];
    }
    const quote = QUOTE.exec(source);
    if (quote) {
      this.#inList = false;
      return this.#wrap(this.blocks.inline(quote[1] as string), '  ').map((row) => this.blocks.quote(row));
    }
    const item = LIST_ITEM.exec(source);
    if (item) {
      this.#inList = true;
      const [, indent, marker, content] = item as unknown as [string, string, string, string];
      const bullet = /\d/.test(marker) ? marker : '*';
      return this.#wrap(this.blocks.inline(content), `${' '.repeat(2 + columnsOf(indent))}${bullet} `);
    }
    const indent = /^[ \t]*/.exec(source)?.[0] ?? '';
    // An indented line belongs to the list above it, or keeps its indentation (a tree, a diagram).
    const prefix = indent === '' ? '' : ' '.repeat((this.#inList ? 2 : 0) + columnsOf(indent));
    if (indent === '') this.#inList = false;
    return this.#wrap(this.blocks.inline(source.trim()), prefix);
  }

  #codeLine(source: string): string[] {
    const fence = this.#fence as { marker: string; language: string };
    const closing = source.trim();
    if (closing.startsWith(fence.marker) && /^(`+|~+)$/.test(closing) && closing[0] === fence.marker[0]) {
      this.#fence = undefined;
      this.#blank = true;
      return [];
    }
    return this.#rows([source.trim() === '' ? '' : this.blocks.code(source, fence.language)]);
  }

  #endTable(): string[] {
    const lines = this.#table;
    this.#table = [];
    // A row without the delimiter row under it was not a table but a line of text.
    if (lines.length === 1) return this.#rows(this.#render(lines[0] as string));
    return this.#rows(this.blocks.table(lines.join('\n')).split('\n'));
  }

  // Rows to print, after the blank line due before them.
  #rows(rows: string[]): string[] {
    const blank = this.#blank && this.#started;
    this.#blank = false;
    this.#started = true;
    return blank ? ['', ...rows] : rows;
  }

  // Word-wraps rendered text to the width, under a first-row prefix; the rows after it are indented as far.
  #wrap(text: string, prefix: string): string[] {
    const room = Math.max(20, this.width - prefix.length);
    const hanging = ' '.repeat(prefix.length);
    return wrapStyledText(text, room, { hard: false, trim: true })
      .split('\n')
      .map((row, index) => `${index === 0 ? prefix : hanging}${row}`);
  }
}

function columnsOf(indent: string): number {
  return indent.replaceAll('\t', '    ').length;
}
