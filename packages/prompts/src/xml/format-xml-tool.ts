import type { ToolDefinition } from '@agentloop/spec';
import { exampleToolArguments } from './example-tool-arguments.js';
import { formatToolParameters } from './format-tool-parameters.js';
import { formatXmlToolCall } from './format-xml-tool-call.js';

/**
 * Describes one tool for the XML protocol: a `## name` heading, its description, its parameters and an
 * example call (required parameters only) in the exact block format. Never throws.
 */
export function formatXmlTool(tool: ToolDefinition): string {
  const description = tool.description.trim();
  return [
    `## ${tool.name}`,
    ...(description ? [description] : []),
    formatToolParameters(tool.inputSchema),
    'Example:',
    formatXmlToolCall({ toolName: tool.name, arguments: exampleToolArguments(tool.inputSchema) }),
  ].join('\n');
}
