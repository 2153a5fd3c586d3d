// Escape sequences first, whole (CSI `ESC [ … m`, OSC `ESC ] … BEL`, DCS/SOS/PM/APC `ESC P … ESC \`, and
// two-byte `ESC x`), in their 7-bit and C1 forms; then any other control character but newline and tab,
// and the bidirectional formatting controls (LRE, RLE, PDF, LRO, RLO and LRI, RLI, FSI, PDI), which make
// text show in another order than it has, so that what is read is not what is there.
const ESCAPE_SEQUENCES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
const CONTROL_CHARACTERS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// What JSON.stringify leaves as it is of the above: it escapes C0 controls, not DEL, C1 or bidi controls.
const UNESCAPED_IN_JSON = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from the model, a tool or a server, safe to print on a terminal: escape sequences, control
 * characters and bidirectional controls are dropped (they could move the cursor, rewrite the screen, set
 * the title or the clipboard, make a link lie about its target, or reorder what is shown); newlines and
 * tabs are kept. A carriage return is dropped too, so `\r\n` becomes `\n` and no line can be overwritten.
 * The one sanitiser of the CLI: every such text passes through it (or, in JSON, through
 * escapeJsonControls) before it is written, and the CLI's own styling is added after it.
 */
export function stripControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARACTERS, '');
}

/**
 * JSON text (as JSON.stringify writes it) with the control characters JSON.stringify leaves raw — DEL,
 * the C1 controls such as U+009B (a one-byte CSI) and the bidirectional controls — written as `\uXXXX`
 * escapes: the same data for a JSON reader, nothing a terminal acts on. Only valid for JSON text, where
 * such characters can only be inside strings.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(UNESCAPED_IN_JSON, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
