import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { type McpPromptSummary, toPromptSummary } from '../prompts/mcp-prompt.js';
import {
  type McpResourceSummary,
  type McpResourceTemplateSummary,
  toResourceSummary,
  toResourceTemplateSummary,
} from '../resources/mcp-resource.js';

/** What a server offers beside its tools, as last listed. */
export interface ServerContent {
  readonly prompts: readonly McpPromptSummary[];
  readonly resources: readonly McpResourceSummary[];
  readonly resourceTemplates: readonly McpResourceTemplateSummary[];
}

/** A server with neither prompts nor resources. */
export const NO_CONTENT: ServerContent = { prompts: [], resources: [], resourceTemplates: [] };

/** Which lists to fetch again: all of them at a start, one kind on its `list_changed` notification. */
export type ContentKind = 'prompts' | 'resources';

/**
 * Lists a server's prompts, resources and resource templates (every page), each only when the server
 * declared the capability in its handshake. A list the server fails to give stays as it was in `previous`:
 * its tools are what the agent needs most, and a server that lists tools but errs on prompts is still
 * useful. Rejects only when the connection breaks.
 */
export async function listServerContent(
  client: Client,
  kinds: readonly ContentKind[],
  previous: ServerContent,
  options: RequestOptions,
): Promise<ServerContent> {
  const capabilities = client.getServerCapabilities() ?? {};
  const wanted = (kind: ContentKind) => kinds.includes(kind) && capabilities[kind] !== undefined;
  const [prompts, resources, resourceTemplates] = await Promise.all([
    wanted('prompts')
      ? listAll((cursor) => client.listPrompts(cursor, options).then((page) => ({ items: page.prompts, page })))
      : undefined,
    wanted('resources')
      ? listAll((cursor) => client.listResources(cursor, options).then((page) => ({ items: page.resources, page })))
      : undefined,
    wanted('resources')
      ? listAll((cursor) =>
          client.listResourceTemplates(cursor, options).then((page) => ({ items: page.resourceTemplates, page })),
        )
      : undefined,
  ]);
  return {
    prompts: prompts ? prompts.map(toPromptSummary) : capabilities.prompts ? previous.prompts : [],
    resources: resources ? resources.map(toResourceSummary) : capabilities.resources ? previous.resources : [],
    resourceTemplates: resourceTemplates
      ? resourceTemplates.map(toResourceTemplateSummary)
      : capabilities.resources
        ? previous.resourceTemplates
        : [],
  };
}

/** Every page of a list; undefined when the server answered with an error (not a broken connection). */
async function listAll<Item>(
  fetchPage: (
    params: { cursor: string } | undefined,
  ) => Promise<{ items: Item[]; page: { nextCursor?: string | undefined } }>,
): Promise<Item[] | undefined> {
  const items: Item[] = [];
  let cursor: string | undefined;
  try {
    do {
      const { items: pageItems, page } = await fetchPage(cursor ? { cursor } : undefined);
      items.push(...pageItems);
      cursor = page.nextCursor;
    } while (cursor);
  } catch (error) {
    if (isConnectionFailure(error)) throw error;
    return undefined;
  }
  return items;
}

function isConnectionFailure(error: unknown): boolean {
  // An McpError with a JSON-RPC code is the server's answer; anything else (closed, network) is the link.
  const code = (error as { code?: unknown } | undefined)?.code;
  return !(typeof code === 'number' && code !== ErrorCode.ConnectionClosed);
}
