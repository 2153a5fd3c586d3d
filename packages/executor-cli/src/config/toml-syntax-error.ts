import type { TomlError } from 'smol-toml';

/** Where a TOML document is wrong, and what is wrong, in the user's words. */
export interface TomlSyntaxProblem {
  line: number;
  column: number;
  problem: string;
}

/**
 * Describes smol-toml's syntax error. A string left open is the common slip, and smol-toml names it by
 * what it trips over: the line break ("control characters are not allowed in strings", pointing past the
 * end of the line), or the end of the file ("unfinished string"). Both become "unterminated string", at
 * the quote that opens it. Every other error is smol-toml's first line, at its position.
 */
export function describeTomlError(text: string, error: TomlError): TomlSyntaxProblem {
  const message = error.message.replace(/^Invalid TOML document: /, '').split('\n')[0] ?? error.message;
  const lineText = text.split(/\r?\n/)[error.line - 1];
  const opening = lineText === undefined ? undefined : openingQuote(message, lineText, error.column - 1);
  if (lineText === undefined || opening === undefined)
    return { line: error.line, column: error.column, problem: message };
  const char = lineText[opening] ?? '"';
  const quote = lineText.startsWith(char.repeat(3), opening) ? char.repeat(3) : char;
  const where = quote.length === 3 ? 'before the end of the file' : 'on its line';
  return {
    line: error.line,
    column: opening + 1,
    problem: `unterminated string: the ${quote} here has no closing ${quote} ${where}`,
  };
}

// The index of the quote that opens the string smol-toml found unterminated, or undefined when the
// error is about something else.
function openingQuote(message: string, lineText: string, index: number): number | undefined {
  if (message === 'unfinished string') return isQuote(lineText[index]) ? index : undefined;
  // A control character inside the line is a real one (a raw tab is allowed; \x01 is not).
  if (message === 'control characters are not allowed in strings' && index >= lineText.length)
    return unclosedQuote(lineText);
  return undefined;
}

/**
 * The index of a quote that opens a one-line string not closed on the line: outside strings `#` starts a
 * comment, `"` strings take backslash escapes and `'` strings none. A `"""` or `'''` string may go on
 * over the next lines, so it is not counted.
 */
function unclosedQuote(line: string): number | undefined {
  let index = 0;
  while (index < line.length) {
    const char = line[index] ?? '';
    if (char === '#') return undefined;
    if (!isQuote(char)) {
      index += 1;
      continue;
    }
    const delimiter = line.startsWith(char.repeat(3), index) ? char.repeat(3) : char;
    let end = index + delimiter.length;
    while (end < line.length && !line.startsWith(delimiter, end)) end += char === '"' && line[end] === '\\' ? 2 : 1;
    if (end >= line.length) return delimiter.length === 1 ? index : undefined;
    index = end + delimiter.length;
  }
  return undefined;
}

function isQuote(char: string | undefined): char is '"' | "'" {
  return char === '"' || char === "'";
}
