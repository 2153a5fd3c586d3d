import type { MarkedExtension, Tokens } from 'marked';

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

/**
 * A renderer of Markdown for the terminal (marked + marked-terminal). The modules load on first use,
 * because marked-terminal and its highlighter take longer to load than the CLI takes to show its prompt.
 */
export async function loadTerminalMarkdown(width: number): Promise<MarkdownRenderer> {
  const [{ Marked }, { markedTerminal }] = await Promise.all([import('marked'), import('marked-terminal')]);
  const marked = new Marked().use(markedTerminal({ width, reflowText: true, tab: 2 }), inlineTextInLists);
  return (markdown) => (marked.parse(markdown, { async: false }) as string).trim();
}
