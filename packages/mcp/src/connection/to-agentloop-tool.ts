import type { JsonSchema, Tool, ToolAnnotations, ToolContext, ToolResult } from '@agentloop/tools';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { nativeToolName } from '../naming/native-tool-name.js';
import { modelFacingSchema, modelFacingText } from '../sanitize/model-facing-text.js';

/** What runs a server's tool: the connection that owns it. Resolves with text, or text with images. */
export type McpToolCaller = (
  toolName: string,
  args: Record<string, unknown>,
  context: ToolContext,
) => Promise<string | ToolResult>;

/**
 * An MCP server's tool as an agentloop tool: named `server__tool` (see nativeToolName), its description
 * (or title) and the descriptions and titles inside its input schema cleaned of escape sequences, control
 * and bidirectional characters (see modelFacingText), its input schema otherwise passed on as it is (the
 * registry validates calls against it, and the server validates them again), and
 * its annotations carried over. The annotations are the server's word, not a fact: approval policies
 * read them as they read a local tool's, and an MCP tool is trusted no more than a local one (a tool
 * that gives no hint gets the cautious answer: not read-only, destructive, open-world).
 */
export function toAgentloopTool(
  serverName: string,
  mcpTool: McpTool,
  call: McpToolCaller,
  timeoutMs: number | undefined,
): Tool<Record<string, unknown>, string | ToolResult> {
  const annotations = toAnnotations(mcpTool.annotations);
  return {
    name: nativeToolName(serverName, mcpTool.name),
    description: modelFacingText(mcpTool.description ?? mcpTool.title ?? mcpTool.annotations?.title ?? ''),
    parameters: modelFacingSchema(mcpTool.inputSchema) as JsonSchema,
    ...(annotations ? { annotations } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    server: { name: serverName, toolName: mcpTool.name },
    execute: (args, context) => call(mcpTool.name, args, context),
  };
}

function toAnnotations(hints: McpTool['annotations']): ToolAnnotations | undefined {
  if (!hints) return undefined;
  const annotations: { -readonly [Key in keyof ToolAnnotations]: ToolAnnotations[Key] } = {};
  if (typeof hints.readOnlyHint === 'boolean') annotations.readOnly = hints.readOnlyHint;
  if (typeof hints.destructiveHint === 'boolean') annotations.destructive = hints.destructiveHint;
  if (typeof hints.openWorldHint === 'boolean') annotations.openWorld = hints.openWorldHint;
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}
