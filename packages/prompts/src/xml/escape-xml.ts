// Escaping is what keeps text we did not write (a tool's output, a path) from closing a block early or
// forging a <tool> block that the parser would run: after it, no `<` in the text can start a tag.

const TEXT_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTRIBUTE_ENTITIES: Record<string, string> = {
  ...TEXT_ENTITIES,
  '"': '&quot;',
  "'": '&apos;',
  // Parsers normalise raw whitespace in attribute values, so it is kept as character references.
  '\n': '&#10;',
  '\r': '&#13;',
  '\t': '&#9;',
};

/**
 * Escapes text for an XML element's content: `&`, `<` and `>`. Quotes stay as they are, so JSON in a
 * tool result stays readable for the model.
 */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>]/g, (character) => TEXT_ENTITIES[character] ?? character);
}

/** Escapes text for a quoted attribute value: `&`, `<`, `>`, both quotes and raw whitespace controls. */
export function escapeXmlAttribute(text: string): string {
  return text.replace(/[&<>"'\n\r\t]/g, (character) => ATTRIBUTE_ENTITIES[character] ?? character);
}
