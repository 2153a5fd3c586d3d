import { createRequire } from 'node:module';

// string-width and wrap-ansi are loaded on first use, not with the command: string-width sets up its
// emoji tables and an Intl.Segmenter as it loads, about 25 ms of CPU that the prompt would otherwise wait
// for, and the prompt measures no text. They are ES modules, loaded with `require`
// so that measuring stays synchronous: Node 20.19 and 22.12 load ES modules that way (package.json's engines).
const require = createRequire(import.meta.url);

type Measure = (text: string) => number;
type Wrap = (text: string, columns: number, options: { hard: boolean; trim: boolean }) => string;

let measure: Measure | undefined;
let wrap: Wrap | undefined;
let graphemes: Intl.Segmenter | undefined;

/** The terminal cells `text` takes (string-width): 2 for a wide character or an emoji, 0 for a control. */
export function textWidth(text: string): number {
  measure ??= (require('string-width') as { default: Measure }).default;
  return measure(text);
}

/** `text` word-wrapped to `columns`, keeping its ANSI styles (wrap-ansi). */
export function wrapStyledText(text: string, columns: number, options: { hard: boolean; trim: boolean }): string {
  wrap ??= (require('wrap-ansi') as { default: Wrap }).default;
  return wrap(text, columns, options);
}

/** The user-perceived characters of `text` (the first call loads ICU's break rules). */
export function splitGraphemes(text: string): Iterable<Intl.SegmentData> {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return graphemes.segment(text);
}
