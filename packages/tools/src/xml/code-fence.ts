// Models often wrap a tool block in a Markdown code fence (```xml or ```json). The fence belongs to the
// block, not to the message, so the parser drops it; these helpers find it. Every length is bounded so
// that what the parser holds back at the end of a chunk stays small whatever the input.

const BACKTICK = 96;

/** How far back from a tool tag a fence opener is looked for; longer than the longest opener. */
const FENCE_WINDOW = 64;

/** A complete fence opener right before a tag: backticks, a language, spaces, a line break, an indent. */
const FENCE_OPENER = /```[\w+-]{0,16}[ \t]{0,16}(?:\r?\n[ \t]{0,16})?$/;

/** Any text that a fence opener could still grow from (every prefix of a `FENCE_OPENER` match). */
const FENCE_OPENER_PREFIX = /(?:```[\w+-]{0,16}[ \t]{0,16}(?:\r?\n[ \t]{0,16}|\r)?|``?)$/;

/** Where a fence opener that ends exactly at `to` starts in `text[from..to)`, or -1 if there is none. */
export function fenceOpenerStart(text: string, from: number, to: number): number {
  return matchBefore(text, from, to, FENCE_OPENER) ?? -1;
}

/**
 * Where text that may still become a fence opener starts at the end of `text[from..to)`, or `to` when
 * none does. The parser holds that text back until it knows whether a tool block follows.
 */
export function heldFenceStart(text: string, from: number, to: number): number {
  return matchBefore(text, from, to, FENCE_OPENER_PREFIX) ?? to;
}

/** Removes a code fence written inside a tool block around its body (```json ... ```). */
export function stripCodeFence(body: string): string {
  let content = body.trim();
  if (content.startsWith('```')) {
    const lineEnd = content.indexOf('\n');
    content = lineEnd === -1 ? content.replace(/^```[\w+-]*/, '') : content.slice(lineEnd + 1);
  }
  if (content.endsWith('```')) content = content.slice(0, -3);
  return content.trim();
}

function matchBefore(text: string, from: number, to: number, pattern: RegExp): number | undefined {
  const windowStart = Math.max(from, to - FENCE_WINDOW);
  // Most text has no backtick near a tag: answer without slicing. The search stays inside the window
  // (`indexOf` would run on to the end of the text, once per tag: quadratic on one whole response).
  if (!hasBacktick(text, windowStart, to)) return undefined;
  const match = pattern.exec(text.slice(windowStart, to));
  return match === null ? undefined : windowStart + match.index;
}

function hasBacktick(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) if (text.charCodeAt(index) === BACKTICK) return true;
  return false;
}
