import { wrapStyledText } from './text-width.js';

/**
 * A status line word-wrapped to `width` columns, its ANSI styles kept, the rows after the first indented
 * by `indent`: a line longer than the terminal would otherwise be broken by the terminal, inside a word.
 * A word longer than a row is broken where it must be.
 */
export function wrapLine(text: string, width: number, indent = '  '): string {
  if (!Number.isFinite(width)) return text;
  return text
    .split('\n')
    .map((line) => wrapRows(line, width, indent))
    .join('\n');
}

function wrapRows(line: string, width: number, indent: string): string {
  const options = { hard: true, trim: true };
  // wrap-ansi trims a row's leading spaces: a line's own indent is set aside and put back.
  const lead = /^ */.exec(line)?.[0] ?? '';
  const [text = '', ...rest] = wrapStyledText(
    line.slice(lead.length),
    Math.max(10, width - lead.length),
    options,
  ).split('\n');
  const first = `${lead}${text}`;
  if (rest.length === 0) return first;
  // The first row has the whole width; the rows after it have what the indent leaves. wrap-ansi closes and
  // reopens the styles on every row, so its rows can be joined again and wrapped anew.
  const after = wrapStyledText(rest.join(' '), Math.max(10, width - indent.length), options).split('\n');
  return [first, ...after.map((row) => `${indent}${row}`)].join('\n');
}
