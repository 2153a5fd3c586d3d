import { describe, expect, it } from 'vitest';
import type { MarkdownBlocks } from './markdown-lines.js';
import { MarkdownLines } from './markdown-lines.js';

// Blocks that show what was asked of them, so the tests read the line renderer's decisions.
const blocks: MarkdownBlocks = {
  inline: (text) => `[${text}]`,
  heading: (source) => `H(${source})`,
  code: (line, language) => `C(${language}):${line}`,
  table: (source) => `T(${source.split('\n').length} rows)`,
  quote: (text) => `Q${text}`,
  rule: (width) => '-'.repeat(width),
};

/** Feeds the lines one by one and returns every row printed, the end included. */
function render(lines: string[], width = 60): string[] {
  const renderer = new MarkdownLines(blocks, width);
  return [...lines.flatMap((line) => renderer.line(line)), ...renderer.end()];
}

describe('MarkdownLines', () => {
  it('renders a line as soon as it ends, each line of a paragraph a row', () => {
    const renderer = new MarkdownLines(blocks, 60);
    expect(renderer.line('Some **bold** text,')).toEqual(['[Some **bold** text,]']);
    expect(renderer.line('on two lines.')).toEqual(['[on two lines.]']);
  });

  it('keeps one blank line between blocks, and none at the start or the end', () => {
    expect(render(['', 'First.', '', '', 'Second.', ''])).toEqual(['[First.]', '', '[Second.]']);
  });

  it('renders headings, rules and quotes', () => {
    expect(render(['## Plan', '---', '> quoted'], 10)).toEqual(['H(## Plan)', '-'.repeat(10), 'Q  [quoted]']);
  });

  it('shows code lines as code, not as Markdown, with a blank line around the block', () => {
    expect(render(['Intro:', '```js', 'const a = 1;', '', '# not a heading', '```', 'After.'])).toEqual([
      '[Intro:]',
      '',
      'C(js):const a = 1;',
      '',
      'C(js):# not a heading',
      '',
      '[After.]',
    ]);
  });

  it('closes a fence only with a fence of its kind at least as long', () => {
    expect(render(['````', '```', 'inside', '````', 'out'])).toEqual(['C():```', 'C():inside', '', '[out]']);
  });

  it('holds the rows of a table until the table ends, showing them as written meanwhile', () => {
    const renderer = new MarkdownLines(blocks, 60);
    expect(renderer.line('Before.')).toEqual(['[Before.]']);
    expect(renderer.line('')).toEqual([]);
    expect(renderer.line('| a | b |')).toEqual([]);
    expect(renderer.line('|---|---|')).toEqual([]);
    expect(renderer.line('| 1 | 2 |')).toEqual([]);
    expect(renderer.preview('| 3 |')).toBe('\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |');
    expect(renderer.line('After.')).toEqual(['', 'T(3 rows)', '[After.]']);
  });

  it('renders a table still held at the end', () => {
    expect(render(['| a |', '|---|', '| 1 |'])).toEqual(['T(3 rows)']);
  });

  it('takes a line starting with a pipe but without a delimiter row under it as text', () => {
    expect(render(['| not a table |', 'next'])).toEqual(['[| not a table |]', '[next]']);
  });

  it('draws list items with their bullets and nesting, and their continuation lines under them', () => {
    expect(render(['- one', '  - nested', '    more of nested', '2) two', 'After.'])).toEqual([
      '  * [one]',
      '    * [nested]',
      '      [more of nested]',
      '  2) [two]',
      '[After.]',
    ]);
  });

  it('keeps the blank lines of a loose list', () => {
    expect(render(['1. one', '', '   More about one.', '', '2. two'])).toEqual([
      '  1. [one]',
      '',
      '     [More about one.]',
      '',
      '  2. [two]',
    ]);
  });

  it('wraps long lines at word boundaries, under the bullet of a list item', () => {
    const item = 'a list item long enough to wrap';
    expect(render([`- ${item}`], 24)).toEqual(['  * [a list item long', '    enough to wrap]']);
  });

  it('keeps the indentation of an indented line outside lists', () => {
    expect(render(['tree:', '    src/', '      index.ts'])).toEqual(['[tree:]', '    [src/]', '      [index.ts]']);
  });

  it('previews the partial line after the blank line due before it', () => {
    const renderer = new MarkdownLines(blocks, 60);
    renderer.line('First.');
    renderer.line('');
    expect(renderer.preview('Sec')).toBe('\nSec');
    expect(renderer.preview('')).toBe('');
  });
});
