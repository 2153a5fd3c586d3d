import { redactUrlCredentials } from '../verbose/redact.js';

/** A text cut to a length, and how much was cut. */
export interface CutText {
  text: string;
  /** Characters left out (0 when nothing was cut). */
  cut: number;
}

/** How far back from the cut a word's end is looked for, as a share of what is kept. */
const WORD_END_REACH = 0.4;

/**
 * Cuts text to at most `max` characters (an ellipsis included), counting what was cut. It cuts after a
 * whole word when one ends in the last 40% of what fits, so that no word is shown in part.
 */
export function cutText(text: string, max: number): CutText {
  const characters = Array.from(text);
  if (characters.length <= max) return { text, cut: 0 };
  const kept = Math.max(0, max - 1);
  let end = kept;
  if (!isSpace(characters[kept])) {
    let space = kept - 1;
    while (space >= 0 && !isSpace(characters[space])) space--;
    if (space > 0 && space >= kept * (1 - WORD_END_REACH)) end = space;
  }
  while (end > 0 && isSpace(characters[end - 1])) end--;
  return { text: `${characters.slice(0, end).join('')}…`, cut: characters.length - end };
}

function isSpace(character: string | undefined): boolean {
  return character !== undefined && /\s/.test(character);
}

/** Text on one line: runs of whitespace, line breaks included, become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `1,234`. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** `850 ms`, `1.2 s`, `2 m 05 s`. */
export function formatDuration(milliseconds: number): string {
  // Each unit is chosen after rounding, so 999.6 ms is `1.0 s`, not `1000 ms`, and 59.97 s is `1 m 00 s`.
  if (Math.round(milliseconds) < 1000) return `${Math.round(milliseconds)} ms`;
  if (Math.round(milliseconds / 100) < 600) return `${(milliseconds / 1000).toFixed(1)} s`;
  const seconds = Math.round(milliseconds / 1000);
  return `${Math.floor(seconds / 60)} m ${String(seconds % 60).padStart(2, '0')} s`;
}

/**
 * A tool call's arguments in short: `path: "src/a.ts", limit: 20`, each value cut to `valueMax`
 * characters and the whole to `max`. The password of a URL in a string (`postgres://u:pw@host`, which a
 * model may write into a command) is hidden before anything is cut, so no cut leaves part of it showing.
 */
export function summarizeArguments(value: unknown, max = 60, valueMax = 32): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object' || Array.isArray(value)) return cutText(oneLine(shownJson(value)), max).text;
  const pairs = Object.entries(value).map(
    ([key, field]) => `${key}: ${cutText(oneLine(shownJson(field) || 'undefined'), valueMax).text}`,
  );
  return cutText(pairs.join(', '), max).text;
}

/**
 * A tool result in short, at most `max` characters: its first characters on one line, then a note of how
 * much was cut — `# agentloop is a… (+2,345 chars, 40 lines)`.
 */
export function summarizeResult(content: string, max: number): string {
  const flat = oneLine(content);
  if (flat === '') return '(empty)';
  if (Array.from(flat).length <= max) return flat;
  const lines = content.trimEnd().split('\n').length;
  const note = (cut: number) => ` (+${formatCount(cut)} chars${lines > 1 ? `, ${formatCount(lines)} lines` : ''})`;
  // The note's length depends on the count it reports; the longest count gives a length that always fits.
  const { text, cut } = cutText(flat, Math.max(8, max - note(flat.length).length));
  return `${text}${note(cut)}`;
}

/** A value as JSON for display, each string's URL passwords hidden (see redactUrlCredentials). */
function shownJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, field: unknown) =>
      typeof field === 'string' ? redactUrlCredentials(field) : field,
    ) ?? ''
  );
}
