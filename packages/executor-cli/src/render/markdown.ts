import type { MarkedExtension, Tokens } from 'marked';
import pc from 'picocolors';
import type { MarkdownBlocks } from './markdown-lines.js';
import { MarkdownLines } from './markdown-lines.js';

/** Turns Markdown into terminal text. */
export type MarkdownRenderer = (markdown: string) => string;

/** Markdown as it is: the plain-text rendering for pipes and `NO_COLOR`. */
export const plainMarkdown: MarkdownRenderer = (markdown) => markdown.trim();

// marked-terminal 7 renders the text of tight list items as it is, so `code` and **bold** in a list stay
// raw with marked 13+; rendering their inline tokens fixes that (other text falls back to marked-terminal).
// On a terminal that supports them, it also writes links as OSC 8 hyperlinks, which show the text and hide
// the target: the model writes both, so `[https://bank.example](https://evil.example)` would lie. A link
// shows its target beside its text instead.
const inlineTextInLists: MarkedExtension = {
  renderer: {
    text(token: Tokens.Text | Tokens.Escape) {
      return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
    },
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      return token.text === token.href ? text : `${text} (${token.href})`;
    },
  },
};

// A line of text that starts like a block (`# `, `- `, `1. `, `> `, a fence) is a list item's or a quote's
// content here, not a block of its own: the backslash keeps marked from reading it as one.
const BLOCK_START = /^(?:#{1,6}(?:\s|$)|[-*+>|](?:\s|$)|`{3}|~{3})/;
const ORDERED_START = /^(\d{1,9})([.)]\s)/;

/**
 * The pieces of terminal Markdown, from marked and marked-terminal. The modules load on first use, because
 * marked-terminal and its highlighter take longer to load than the CLI takes to show its prompt. Colours
 * are on: use it only for an output that shows them (the caller decides, from that output).
 */
export async function loadMarkdownBlocks(): Promise<MarkdownBlocks> {
  const [{ Marked }, { markedTerminal }] = await Promise.all([import('marked'), import('marked-terminal')]);
  // The styles are picocolors' with colour on, not chalk's, which decides from stdout alone: the streamed
  // text of `agentloop run` goes to stderr, often a terminal while stdout is a file.
  const color = pc.createColors(true);
  const same = (text: string) => text;
  const styles = {
    code: color.yellow,
    blockquote: (text: string) => color.gray(color.italic(text)),
    html: color.gray,
    heading: (text: string) => color.green(color.bold(text)),
    firstHeading: (text: string) => color.magenta(color.underline(color.bold(text))),
    hr: same,
    listitem: same,
    table: same,
    paragraph: same,
    strong: color.bold,
    em: color.italic,
    codespan: color.yellow,
    del: (text: string) => color.dim(color.gray(color.strikethrough(text))),
    link: color.blue,
    href: (text: string) => color.blue(color.underline(text)),
  };
  const marked = new Marked().use(markedTerminal({ reflowText: false, tab: 2, ...styles }), inlineTextInLists);
  const render = (markdown: string) => (marked.parse(markdown, { async: false }) as string).replace(/^\n+|\n+$/g, '');
  return {
    inline: (text) => {
      const escaped = BLOCK_START.test(text) ? `\\${text}` : text.replace(ORDERED_START, '$1\\$2');
      return render(escaped);
    },
    heading: render,
    code: (line, language) => {
      if (language === '') return `  ${color.yellow(line)}`;
      // A fence longer than any run of backticks in the line, so the line cannot close it.
      const fence = '`'.repeat(Math.max(3, ...Array.from(line.matchAll(/`+/g), (run) => run[0].length + 1)));
      return render(`${fence}${language}\n${line}\n${fence}`);
    },
    table: render,
    quote: styles.blockquote,
    rule: (width) => color.dim('─'.repeat(width)),
  };
}

/** Markdown for the terminal, line by line as `MarkdownLines` renders a stream, so both look the same. */
export function renderMarkdown(blocks: MarkdownBlocks, width: number, markdown: string): string {
  const lines = new MarkdownLines(blocks, width);
  const rows = markdown.split('\n').flatMap((line) => lines.line(line));
  return [...rows, ...lines.end()].join('\n');
}
