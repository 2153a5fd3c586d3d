import { isLibraryNotLoaded } from './libraries/lazy-library.js';
import { jsonrepairLibrary } from './libraries/tool-libraries.js';

/**
 * jsonrepair, loaded the first time a call's arguments need a repair (or by `prepareTools()`): most runs
 * never do, and importing it costs every process that loads the tools at start-up.
 */
function repairJson(text: string): string {
  return jsonrepairLibrary.get().jsonrepair(text);
}

/** Why a call's argument text was refused. */
export type ArgumentsProblem = 'invalid_json' | 'cut_off' | 'too_deep' | 'too_large';

/** The outcome of decoding a tool call's argument text. */
export type ParsedArguments =
  | { ok: true; value: unknown; repaired: boolean }
  | { ok: false; problem: ArgumentsProblem; message: string };

/** Options of parseToolArguments. */
export interface ParseToolArgumentsOptions {
  /**
   * The caller knows the text is whole: the XML protocol's parser has found where the block ends and
   * reports a block cut off by the end of the stream itself. Text that looks cut off (a quote or brace
   * missing) is then sloppy, and gets a repair like any other. Default false: arguments a provider
   * streamed may have been cut.
   */
  whole?: boolean;
}

/** The deepest nesting of arguments accepted: real tools nest a few levels, and deeper values break serialisers. */
export const MAX_ARGUMENT_DEPTH = 64;

/** The longest argument text accepted, in characters: every later request carries it in history. */
export const MAX_ARGUMENT_CHARS = 2_000_000;

/**
 * Decodes a tool call's arguments from the JSON text a model wrote. Empty text means no arguments (`{}`).
 * Text nested deeper than MAX_ARGUMENT_DEPTH or longer than MAX_ARGUMENT_CHARS is refused before it is
 * parsed, so it is never stored or run. Sloppy JSON (a trailing comma, single quotes, a code fence
 * around it) gets one repair attempt with jsonrepair; a JSON object that was cut off (it ends inside a
 * string, after a `,` or `:`, or with objects left open) is refused instead, whatever came before it
 * (a fence, whitespace, prose), because a repair would run a call the model never finished.
 * Never throws, but in an app's bundle where nothing loaded jsonrepair (`library_not_loaded`: `await
 * prepareTools()`): a refusal says why, so the model can correct its call.
 */
export function parseToolArguments(text: string, options: ParseToolArgumentsOptions = {}): ParsedArguments {
  if (text.length > MAX_ARGUMENT_CHARS) {
    return refuse(
      'too_large',
      `the arguments are ${text.length} characters long, more than the ${MAX_ARGUMENT_CHARS} allowed; send less, or split the work into several calls`,
    );
  }
  // Nesting past the limit takes at least as many characters as levels: short text is not scanned for it.
  const shape = text.length > MAX_ARGUMENT_DEPTH ? scanJsonText(text) : undefined;
  if (shape && shape.maxDepth > MAX_ARGUMENT_DEPTH) {
    return refuse(
      'too_deep',
      `the arguments nest ${shape.maxDepth} levels deep, more than the ${MAX_ARGUMENT_DEPTH} allowed; send flatter arguments`,
    );
  }
  if (text.trim() === '') return { ok: true, value: {}, repaired: false };
  try {
    return { ok: true, value: JSON.parse(text), repaired: false };
  } catch (error) {
    const cut = options.whole ? undefined : describeCut(objectShape(text, shape ?? scanJsonText(text)));
    if (cut) {
      return refuse(
        'cut_off',
        `the arguments were cut off before they were complete (the JSON text ${cut}); the call was not run: send the whole call again`,
      );
    }
    try {
      const repaired: unknown = JSON.parse(repairJson(text));
      // jsonrepair turns any prose into a JSON string; only a repair that yields an object is a repair.
      if (typeof repaired === 'object' && repaired !== null && !Array.isArray(repaired)) {
        return { ok: true, value: repaired, repaired: true };
      }
    } catch (repairError) {
      // A bundled app that never loaded jsonrepair is told so, not shown as the model's fault.
      if (isLibraryNotLoaded(repairError)) throw repairError;
      // Otherwise reported below with the original parse error, which says more about the text the model wrote.
    }
    const reason = error instanceof Error ? error.message : 'unknown problem';
    return refuse('invalid_json', `the arguments are not valid JSON (${reason}); send them as one JSON object`);
  }
}

/** What a scan of JSON-like text found: its deepest nesting, and how it ends. */
interface JsonTextShape {
  maxDepth: number;
  /** Objects and arrays still open at the end. */
  open: number;
  /** The text ends inside a string. */
  inString: boolean;
  /** The last character outside strings is `,` or `:`: a value was still to come. */
  dangling: boolean;
}

/**
 * One linear pass over JSON-like text (double- and single-quoted strings, as models write them), without
 * recursion, so that hostile nesting costs no stack.
 */
function scanJsonText(text: string): JsonTextShape {
  let depth = 0;
  let maxDepth = 0;
  let quote = '';
  let escaped = false;
  let last = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (quote !== '') {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === quote) quote = '';
      continue;
    }
    if (char === '"' || (char === "'" && (last === '' || '{[,:'.includes(last)))) quote = char;
    else if (char === '{' || char === '[') {
      depth++;
      if (depth > maxDepth) maxDepth = depth;
    } else if (char === '}' || char === ']') depth = Math.max(0, depth - 1);
    if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') last = char;
  }
  return { maxDepth, open: depth, inString: quote !== '', dangling: last === ',' || last === ':' };
}

/** What may follow an object's `{` (after whitespace): a key, quoted or bare, or the object's end. */
const OBJECT_BODY_START = /["'}A-Za-z_$]/;

/**
 * The shape of the JSON object in `text`, from the `{` that opens it to the end of the text. jsonrepair
 * skips what models put before an object (a code fence, a comment, a JSONP callback name), so a cut is
 * judged on the object itself, however it was wrapped or introduced. A `{` opens an object when a key,
 * a `}` or the end of the text follows it, and no other `{` touches it (`{{` is never JSON: a key is
 * not an object); text without one holds no object that could have been cut.
 */
function objectShape(text: string, textShape: JsonTextShape): JsonTextShape | undefined {
  let previous = '';
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (char === '{' && previous !== '{') {
      let next = index + 1;
      while (next < text.length && isSpace(text.charAt(next))) next++;
      if (next === text.length || OBJECT_BODY_START.test(text.charAt(next))) {
        return index === 0 ? textShape : scanJsonText(text.slice(index));
      }
    }
    if (!isSpace(char)) previous = char;
  }
  return undefined;
}

function isSpace(char: string): boolean {
  return char === ' ' || char === '\n' || char === '\r' || char === '\t';
}

function describeCut(shape: JsonTextShape | undefined): string | undefined {
  if (shape === undefined) return undefined;
  if (shape.inString) return 'ends inside a string';
  if (shape.dangling) return 'ends where a value was still to come';
  if (shape.open > 0) return `ends with ${shape.open} objects or arrays left open`;
  return undefined;
}

function refuse(problem: ArgumentsProblem, message: string): ParsedArguments {
  return { ok: false, problem, message };
}
