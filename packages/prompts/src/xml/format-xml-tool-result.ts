import { escapeXmlAttribute, escapeXmlText } from './escape-xml.js';

/** A tool's result, to send back to the model in the XML protocol. */
export interface XmlToolResult {
  /** The name of the tool that was called (as the model wrote it, for an unknown tool). */
  toolName: string;
  /** The result text, or the error message the model should act on. */
  content: string;
  /** True when the call failed; the block then says `status="error"`. */
  isError?: boolean;
}

/**
 * Formats a tool result as the text of a user message:
 * `<tool_result tool_name="…" status="ok|error">…</tool_result>`. The content and the tool name are
 * escaped, so a tool's output can neither close the block early nor forge a `<tool>` call. Never throws.
 */
export function formatXmlToolResult(result: XmlToolResult): string {
  const status = result.isError ? 'error' : 'ok';
  return [
    `<tool_result tool_name="${escapeXmlAttribute(result.toolName)}" status="${status}">`,
    escapeXmlText(result.content),
    '</tool_result>',
  ].join('\n');
}
