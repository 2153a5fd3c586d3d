// Reads the imports out of a source file, as text, for scripts/check-imports.mjs: comments and the
// contents of strings, template literals and regular expressions are blanked first, so that an import
// written in a comment or a string is not counted.

/** Keywords after which a `/` starts a regular expression rather than a division. */
const WORDS_BEFORE_REGEX = new Set(
  'return typeof instanceof in of new delete void throw case do else yield await'.split(' '),
);

/**
 * The source with comments and the contents of strings, template literals and regular expressions
 * replaced by spaces (quotes and line breaks kept), so that offsets and line numbers stay the same.
 */
export function blankCommentsAndStrings(source) {
  const out = source.split('');
  const blank = (from, to) => {
    for (let index = from; index < to; index++) if (out[index] !== '\n') out[index] = ' ';
  };
  const templateBraces = []; // for each open `${`, the brace depth to return to the template at
  let braces = 0;
  let regexAllowed = true; // what the last token was decides what a `/` means
  let index = 0;

  // Blanks template text from `start` up to its closing backtick or the next `${`; returns where to go on.
  const templateText = (start) => {
    let at = start;
    while (at < source.length && source[at] !== '`' && !(source[at] === '$' && source[at + 1] === '{')) {
      at += source[at] === '\\' ? 2 : 1;
    }
    blank(start, Math.min(at, source.length));
    if (source[at] === '$') {
      templateBraces.push(braces);
      regexAllowed = true;
      return at + 2;
    }
    regexAllowed = false;
    return at + 1;
  };

  while (index < source.length) {
    const char = source[index];
    const next = source[index + 1];
    if (char === '/' && next === '/') {
      const end = source.indexOf('\n', index);
      const stop = end === -1 ? source.length : end;
      blank(index, stop);
      index = stop;
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', index + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(index, stop);
      index = stop;
    } else if (char === "'" || char === '"') {
      let at = index + 1;
      while (at < source.length && source[at] !== char && source[at] !== '\n') at += source[at] === '\\' ? 2 : 1;
      blank(index + 1, Math.min(at, source.length));
      index = at + 1;
      regexAllowed = false;
    } else if (char === '`') {
      index = templateText(index + 1);
    } else if (char === '}' && braces === templateBraces.at(-1)) {
      templateBraces.pop();
      index = templateText(index + 1);
    } else if (char === '/' && regexAllowed) {
      let at = index + 1;
      let inClass = false;
      while (at < source.length && source[at] !== '\n' && (inClass || source[at] !== '/')) {
        if (source[at] === '[') inClass = true;
        else if (source[at] === ']') inClass = false;
        at += source[at] === '\\' ? 2 : 1;
      }
      blank(index + 1, Math.min(at, source.length));
      index = at + 1;
      regexAllowed = false;
    } else if (/[\w$]/.test(char)) {
      const word = /^[\w$]+/.exec(source.slice(index, index + 100))[0];
      regexAllowed = WORDS_BEFORE_REGEX.has(word);
      index += word.length;
    } else {
      if (char === '{') braces++;
      if (char === '}') braces--;
      if (!/\s/.test(char)) regexAllowed = !/[)\]]/.test(char);
      index++;
    }
  }
  return out.join('');
}

// Matched against the blanked source: a quote there opens the module specifier. Type-only means erased
// from the JavaScript: with `verbatimModuleSyntax` (tsconfig.base.json) that is `import type` and
// `export type` only; `import { type A } from 'a'` still loads `a`.
const STATIC_IMPORT = /(?<![\w$.])import(?=[\s{*'"])\s*(?:(type)\s+)?(?:[^;'"()]*?\s*from\s*)?(['"])/g;
const RE_EXPORT = /(?<![\w$.])export\s+(?:(type)\s+)?(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['"])/g;
const DYNAMIC_IMPORT = /(?<![\w$.])import\s*\(\s*(['"])/g;

/**
 * The module specifiers a source file imports or re-exports, each with its 1-based line, whether it is
 * type-only and whether it is a dynamic `import('...')`. A dynamic import in a type position
 * (`typeof import('a')`, `import('a').Type`) counts as type-only.
 */
export function extractImports(source) {
  const code = blankCommentsAndStrings(source);
  const imports = [];
  const add = (quoteAt, typeOnly, dynamic) => {
    const end = source.indexOf(source[quoteAt], quoteAt + 1);
    const specifier = source.slice(quoteAt + 1, end);
    const line = source.slice(0, quoteAt).split('\n').length;
    imports.push({ specifier, line, typeOnly, dynamic, end });
  };
  for (const pattern of [STATIC_IMPORT, RE_EXPORT]) {
    for (const match of code.matchAll(pattern)) add(match.index + match[0].length - 1, match[1] === 'type', false);
  }
  for (const match of code.matchAll(DYNAMIC_IMPORT)) {
    const quoteAt = match.index + match[0].length - 1;
    const before = code.slice(Math.max(0, match.index - 20), match.index);
    const after = code.slice(source.indexOf(source[quoteAt], quoteAt + 1) + 1);
    const typePosition = /typeof\s*$/.test(before) || /^\s*\)\s*\.\s*(?!then\b|catch\b|finally\b)[\w$]/.test(after);
    add(quoteAt, typePosition, true);
  }
  return imports.sort((a, b) => a.end - b.end).map(({ end, ...entry }) => entry);
}
