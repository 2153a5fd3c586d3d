import type { JsonSchema, Tool, ToolResult } from '@agentloop/tools';
import type { McpServerStatus } from '../connection/mcp-server-status.js';
import { McpServerError } from '../errors/index.js';
import { modelFacingText } from '../sanitize/model-facing-text.js';
import { type McpResourceContents, resourceContentsValue } from './mcp-resource-contents.js';

/** The name of the tool through which the model reads the servers' resources. */
export const READ_RESOURCE_TOOL_NAME = 'read_resource';

/** What the tool reads through: the servers (McpServers). */
export interface ResourceReader {
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpResourceContents[]>;
  /** The most of a server's resource given at once, in bytes; absent: DEFAULT_MAX_RESOURCE_BYTES. */
  maxResourceBytes?(server: string): number;
}

// The description lists the resources so that the model knows what it may read; a server with thousands
// would fill the context, so each lists this many, and its templates.
const LISTED_PER_SERVER = 25;

/**
 * The `read_resource` tool (`server`, `uri`) over the servers that offer resources or resource templates,
 * its description listing them (names and prose cleaned for the model) and its `server` argument limited
 * to their names; `start_line`, `start_char` and `part` read on where a long resource was cut. Read-only, so an approval policy never asks about it. A failure is an error result the
 * model can act on: the servers it may name, or the server's answer with the resources it lists.
 */
export function readResourceTool(reader: ResourceReader, statuses: readonly McpServerStatus[]): Tool {
  const offering = statuses.filter((status) => status.resources.length > 0 || status.resourceTemplates.length > 0);
  const names = offering.map((status) => status.name);
  const parameters: JsonSchema = {
    type: 'object',
    properties: {
      server: { type: 'string', enum: names, description: 'The MCP server that has the resource.' },
      uri: { type: 'string', description: 'The resource’s URI, from the list or filled into a template.' },
      part: {
        type: 'integer',
        minimum: 1,
        description:
          'For a resource in several parts: the part to start at (from 1), as the note of a cut names it; start_line counts in that part. Default 1.',
      },
      start_line: {
        type: 'integer',
        minimum: 1,
        description: 'The line to start at (from 1), to read on where a long resource was cut. Default 1.',
      },
      start_char: {
        type: 'integer',
        minimum: 1,
        description:
          'The character of start_line to start at (from 1), to read on inside a line longer than the limit, as the note of its cut says. Default 1.',
      },
    },
    required: ['server', 'uri'],
    additionalProperties: false,
  };
  return {
    name: READ_RESOURCE_TOOL_NAME,
    description: describe(offering),
    parameters,
    annotations: { readOnly: true, destructive: false, openWorld: false },
    async execute(
      args: { server: string; uri: string; part?: number; start_line?: number; start_char?: number },
      context,
    ): Promise<string | ToolResult> {
      const status = offering.find((candidate) => candidate.name === args.server);
      if (!status) {
        throw new McpServerError(
          args.server,
          `No MCP server "${args.server}" has resources. Name one of: ${names.join(', ')}.`,
          'unknown_server',
        );
      }
      try {
        const contents = await reader.readResource(args.server, args.uri, context.signal);
        return resourceContentsValue(contents, {
          ...(args.part === undefined ? {} : { part: args.part }),
          ...(args.start_line === undefined ? {} : { startLine: args.start_line }),
          ...(args.start_char === undefined ? {} : { startChar: args.start_char }),
          ...(reader.maxResourceBytes ? { maxBytes: reader.maxResourceBytes(args.server) } : {}),
        });
      } catch (error) {
        if (!McpServerError.isInstance(error) || error.code !== 'resource_error') throw error;
        throw new McpServerError(
          args.server,
          `${error.message}. Read a URI it lists${status.resourceTemplates.length > 0 ? ' or one filled into its templates' : ''}: ${listing(status)}`,
          'resource_error',
          error,
        );
      }
    },
  };
}

function describe(offering: readonly McpServerStatus[]): string {
  const servers = offering.map((status) => `- ${status.name}: ${listing(status)}`);
  return [
    'Read a resource of an MCP server by its URI: its text, or the image it holds. A long text is cut at a line end (a line longer than the limit, between two characters of it), with a note saying how to read on with start_line (and start_char inside such a line, and part for a resource in several parts, whose text together is held to one limit). The resources by server:',
    ...servers,
  ].join('\n');
}

function listing(status: McpServerStatus): string {
  const resources = status.resources
    .slice(0, LISTED_PER_SERVER)
    .map((resource) => `${modelFacingText(resource.uri)} (${resource.title ?? resource.name}${about(resource)})`);
  const more = status.resources.length - LISTED_PER_SERVER;
  if (more > 0) resources.push(`and ${more} more`);
  const templates = status.resourceTemplates.map(
    (template) => `template ${template.uriTemplate} (${template.title ?? template.name}${about(template)})`,
  );
  return [...resources, ...templates].join('; ') || 'none listed';
}

function about(item: { description?: string; mimeType?: string }): string {
  const details = [item.mimeType, item.description?.split('\n')[0]].filter(Boolean);
  return details.length > 0 ? `: ${details.join(', ')}` : '';
}
