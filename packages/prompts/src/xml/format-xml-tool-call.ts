/** A tool call to write as a `<tool>` block. */
export interface XmlToolCall {
  /** The tool's name. */
  toolName: string;
  /** The call's arguments, a JSON object. */
  arguments: Record<string, unknown>;
  /** The server the tool belongs to; `local` (the default) for the agent's own tools. */
  serverName?: string;
}

/**
 * Writes a tool call in the XML protocol's block format, exactly as the model is told to write it: the
 * JSON envelope on separate lines and the arguments on one line. The format template, each tool's example
 * and the no-tool-call reminder all use it, so the model never sees two spellings of the format.
 */
export function formatXmlToolCall(call: XmlToolCall): string {
  return [
    '<tool>',
    '{',
    `  "server_name": ${JSON.stringify(call.serverName ?? 'local')},`,
    `  "tool_name": ${JSON.stringify(call.toolName)},`,
    `  "arguments": ${formatInlineJson(call.arguments)}`,
    '}',
    '</tool>',
  ].join('\n');
}

// One-line JSON with a space inside braces and after separators (`{ "param": "value" }`), the seed's
// spelling, which reads better for a model than JSON.stringify's dense form.
function formatInlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatInlineJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([key, entry]) => `${JSON.stringify(key)}: ${formatInlineJson(entry)}`).join(', ')} }`;
  }
  return JSON.stringify(value) ?? 'null';
}
