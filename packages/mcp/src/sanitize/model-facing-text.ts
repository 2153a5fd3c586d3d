// Escape sequences first, whole (CSI `ESC [ … m`, OSC `ESC ] … BEL`, DCS/SOS/PM/APC `ESC P … ESC \`, and
// two-byte `ESC x`), in their 7-bit and C1 forms; then any other control character but newline and tab,
// and the bidirectional formatting controls (LRE, RLE, PDF, LRO, RLO and LRI, RLI, FSI, PDI). The same
// set the CLI strips before it prints, which this package cannot import (it sits below the executors).
const ESCAPE_SEQUENCES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
const CONTROL_CHARACTERS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

// The keys of a JSON Schema whose string values are prose for the model, not data the server checks.
const PROSE_KEYS = new Set(['description', 'title']);

/**
 * A server's text as the model (and a terminal that shows the tool list) should get it: escape
 * sequences, control characters but newline and tab, and bidirectional controls dropped. A server's tool
 * description is instructions to the model: an RLO (U+202E) could make what a user reviews read otherwise
 * than what the model reads, and ESC or C1 sequences could drive the terminal that shows it. Never throws.
 */
export function modelFacingText(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARACTERS, '');
}

/**
 * A copy of an input schema whose `description` and `title` strings, at every depth, pass through
 * modelFacingText. Everything else (property names, `enum`, `const`, `default`, patterns) is data the
 * server validates against and is kept byte for byte. Never throws on JSON; returns other values as they are.
 */
export function modelFacingSchema<Value>(schema: Value): Value {
  if (Array.isArray(schema)) return schema.map((item) => modelFacingSchema(item)) as Value;
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = PROSE_KEYS.has(key) && typeof value === 'string' ? modelFacingText(value) : modelFacingSchema(value);
  }
  return copy as Value;
}
