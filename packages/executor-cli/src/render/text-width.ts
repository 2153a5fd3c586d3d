import { createRequire } from 'node:module';

// string-width and wrap-ansi are loaded on first use, not with the command: string-width sets up its
// emoji tables and an Intl.Segmenter as it loads, about 25 ms of CPU that the prompt would otherwise wait
// for, and the prompt measures no text. `loadTextWidth()` imports them while the user types the first task:
// an import is what an app's bundler follows, for an app that bundles CliExecutor. Measuring stays
// synchronous: where nothing imported them yet, it requires them (Node 20.19 and 22.12 load ES modules
// that way: package.json's engines). Not @agentloop/tools' lazyLibrary: the prompt is drawn before the
// command loads any of agentloop's packages.

type Measure = (text: string) => number;
type Wrap = (text: string, columns: number, options: { hard: boolean; trim: boolean }) => string;

let measure: Measure | undefined;
let wrap: Wrap | undefined;
let loading: Promise<void> | undefined;
let graphemes: Intl.Segmenter | undefined;

/** Imports string-width and wrap-ansi, so that the first measure does not load them. Rejects when one cannot load. */
export function loadTextWidth(): Promise<void> {
  loading ??= Promise.all([import('string-width'), import('wrap-ansi')]).then(
    ([stringWidth, wrapAnsi]) => {
      measure ??= stringWidth.default;
      wrap ??= wrapAnsi.default;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

function required<Library>(name: string): Library {
  try {
    return (createRequire(import.meta.url)(name) as { default: Library }).default;
  } catch (error) {
    throw new Error(
      `${name} is not loaded and cannot be required here (${(error as Error).message.split('\n')[0]}); in an app built with a bundler, \`await loadTextWidth()\` first, or install ${name} beside the app.`,
      { cause: error },
    );
  }
}

/** The terminal cells `text` takes (string-width): 2 for a wide character or an emoji, 0 for a control. */
export function textWidth(text: string): number {
  measure ??= required<Measure>('string-width');
  return measure(text);
}

/** `text` word-wrapped to `columns`, keeping its ANSI styles (wrap-ansi). */
export function wrapStyledText(text: string, columns: number, options: { hard: boolean; trim: boolean }): string {
  wrap ??= required<Wrap>('wrap-ansi');
  return wrap(text, columns, options);
}

/** The user-perceived characters of `text` (the first call loads ICU's break rules). */
export function splitGraphemes(text: string): Iterable<Intl.SegmentData> {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return graphemes.segment(text);
}
