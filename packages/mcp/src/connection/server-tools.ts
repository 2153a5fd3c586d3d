import type { Tool } from '@agentloop/tools';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config/index.js';
import { type McpToolCaller, toAgentloopTool } from './to-agentloop-tool.js';

/** Lists every tool of a server, page by page; none for a server that offers no tools. */
export async function listServerTools(client: Client, options: RequestOptions): Promise<McpTool[]> {
  // A server that offers only prompts or resources answers tools/list with "method not found".
  if (!client.getServerCapabilities()?.tools) return [];
  const listed: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, options);
    listed.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return listed;
}

/**
 * A server's tools as agentloop tools, after its `includeTools` and `excludeTools`, as last listed. A
 * listing keeps the tool objects of the tools that did not change, so that a registry sees only what did.
 */
export class ServerTools {
  readonly #server: string;
  readonly #config: McpServerConfig;
  readonly #call: McpToolCaller;
  #listed: McpTool[] = [];
  #tools: Tool[] = [];

  /** `call` runs a call of one of the tools: the connection's. */
  constructor(server: string, config: McpServerConfig, call: McpToolCaller) {
    this.#server = server;
    this.#config = config;
    this.#call = call;
  }

  /** The tools as last listed; a new array after each listing. */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  /** Takes a new listing of the server's tools. */
  set(listed: McpTool[]): void {
    const { includeTools, excludeTools } = this.#config;
    const kept = listed.filter(
      (tool) => (!includeTools || includeTools.includes(tool.name)) && !excludeTools?.includes(tool.name),
    );
    const previous = new Map(this.#listed.map((tool, index) => [JSON.stringify(tool), this.#tools[index]]));
    this.#listed = kept;
    this.#tools = kept.map(
      (tool) =>
        previous.get(JSON.stringify(tool)) ??
        toAgentloopTool(this.#server, tool, this.#call, this.#config.toolTimeoutMs),
    );
  }
}
