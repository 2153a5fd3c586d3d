/** How much of a block's start is kept to read its tool name early; the cost per chunk stays bounded. */
export const TOOL_NAME_PEEK_LENGTH = 512;

// Only the leading keys are looked at, so that a `name` nested inside the arguments is never taken for
// the tool's name. The template puts `server_name` first, so it may come before the name.
const JSON_NAME =
  /^\s*(?:```[\w+-]*\s*)?\{\s*(?:"server_name"\s*:\s*"[^"\\]*"\s*,\s*)?"(?:tool_name|name)"\s*:\s*"([^"\\]*)"/;
const XML_NAME = /^\s*(?:```[\w+-]*\s*)?(?:<server_name>[^<&]*<\/server_name>\s*)?<(tool_name|name)>([^<&]*)<\/\1>/;

/**
 * Reads the tool name from the start of a block body before the block is complete, so that a UI can
 * show which tool is being called while its arguments stream. Returns undefined when the name is not
 * among the first keys or elements, or is not plain text (escapes, entities); the decoded block then
 * supplies it.
 */
export function peekToolName(head: string): string | undefined {
  const name = (JSON_NAME.exec(head)?.[1] ?? XML_NAME.exec(head)?.[2])?.trim();
  return name === '' ? undefined : name;
}
