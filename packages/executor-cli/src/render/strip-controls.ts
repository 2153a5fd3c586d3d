// Escape sequences first, whole (CSI `ESC [ … m`, OSC `ESC ] … BEL`, DCS/SOS/PM/APC `ESC P … ESC \`, and
// two-byte `ESC x`), in their 7-bit and C1 forms; then any other control character but newline and tab.
const ESCAPE_SEQUENCES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
const CONTROL_CHARACTERS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Text from the model or a tool, safe to print on a terminal: escape sequences and control characters
 * are dropped (they could move the cursor, rewrite the screen, set the title or the clipboard, or make a
 * link lie about its target); newlines and tabs are kept. A carriage return is dropped too, so `\r\n`
 * becomes `\n` and no line can be overwritten.
 */
export function stripControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARACTERS, '');
}
