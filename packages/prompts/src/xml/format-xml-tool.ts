import type { ToolDefinition } from '@agentloop/spec';
import { exampleToolArguments } from './example-tool-arguments.js';
import { formatToolParameters } from './format-tool-parameters.js';
import { formatXmlToolCall } from './format-xml-tool-call.js';

/**
 * Describes one tool for the XML protocol: a heading with its name (`## name`, or deeper with
 * `headingLevel`), its description, its parameters and an example call (required parameters only) in the
 * exact block format. A server's tool goes by its name on that server, and its example names the server.
 * Never throws.
 */
export function formatXmlTool(tool: ToolDefinition, headingLevel = 2): string {
  const description = tool.description.trim();
  const toolName = tool.server?.toolName ?? tool.name;
  return [
    `${'#'.repeat(headingLevel)} ${toolName}`,
    ...(description ? [description] : []),
    formatToolParameters(tool.inputSchema),
    'Example:',
    formatXmlToolCall({
      toolName,
      arguments: exampleToolArguments(tool.inputSchema),
      ...(tool.server ? { serverName: tool.server.name } : {}),
    }),
  ].join('\n');
}
