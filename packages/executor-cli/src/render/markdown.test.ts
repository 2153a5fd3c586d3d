import { describe, expect, it } from 'vitest';
import { loadMarkdownBlocks, type MarkdownRenderer, plainMarkdown, renderMarkdown } from './markdown.js';

// As on a terminal that supports hyperlinks: supports-hyperlinks reads it when marked-terminal first loads.
process.env.FORCE_HYPERLINK = '1';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is being removed
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

/** Markdown for a terminal `width` columns wide, as the session renders a finished answer. */
async function loadTerminalMarkdown(width: number): Promise<MarkdownRenderer> {
  const blocks = await loadMarkdownBlocks();
  return (markdown) => renderMarkdown(blocks, width, markdown);
}

describe('terminal Markdown', () => {
  it('renders emphasis and lists for the terminal', async () => {
    const markdown = await loadTerminalMarkdown(80);
    const text = stripAnsi(markdown('Some **bold** text.\n\n- one\n- two'));
    expect(text).toContain('Some bold text.');
    expect(text).toMatch(/\* one\n\s+\* two/);
  });

  it('renders code and emphasis inside list items, keeping the indentation of the first', async () => {
    const markdown = await loadTerminalMarkdown(80);
    expect(stripAnsi(markdown('- `commander` for **arguments**\n- `marked`'))).toBe(
      '  * commander for arguments\n  * marked',
    );
  });

  it('keeps the blank lines between blocks, between the items of a loose list too', async () => {
    const markdown = await loadTerminalMarkdown(80);
    const text = stripAnsi(markdown('Steps:\n\n1. Read.\n\n   Then think.\n\n2. Write.\n\nDone.'));
    expect(text).toBe('Steps:\n\n  1. Read.\n\n     Then think.\n\n  2. Write.\n\nDone.');
  });

  it('colours the Markdown of any output it is used for, whatever stdout is', async () => {
    const markdown = await loadTerminalMarkdown(80);
    expect(markdown('**bold**')).toBe('\x1b[1mbold\x1b[22m');
  });

  it('shows the target of a link beside its text, never as a hidden hyperlink target', async () => {
    const markdown = await loadTerminalMarkdown(80);
    const text = markdown('Log in at [https://bank.example](https://evil.example/login).');
    expect(text).not.toContain('\x1b]8;');
    expect(stripAnsi(text)).toBe('Log in at https://bank.example (https://evil.example/login).');
  });

  it('leaves Markdown as it is in plain mode, trimmed', () => {
    expect(plainMarkdown('  **bold**\n\n')).toBe('**bold**');
  });
});
