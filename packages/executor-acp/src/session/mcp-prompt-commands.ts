import type { AvailableCommand, ContentBlock } from '@agentclientprotocol/sdk';
import type { Agent } from '@agentloop/core';
import type { McpServers } from '@agentloop/mcp';

/**
 * The MCP servers attached to the agent's registry: the editor's and those the agent was composed with.
 * @agentloop/mcp is imported only when it is loaded already (`loaded`: the editor's servers were
 * connected) or the agent has a tool from an MCP server (or `read_resource`), so that a session without
 * servers never loads the MCP SDK.
 */
export async function agentMcpServers(agent: Agent, { loaded = false } = {}): Promise<McpServers[]> {
  const usesMcp =
    loaded || agent.tools.list().some(({ tool }) => tool.server !== undefined || tool.name === 'read_resource');
  if (!usesMcp) return [];
  const { attachedMcpServers } = await import('@agentloop/mcp');
  return attachedMcpServers(agent.tools);
}

/**
 * The servers' prompts as commands for `available_commands_update`: `server:prompt`, the prompt's
 * description, and its arguments as the input hint (`city [state]`, an optional one in brackets).
 */
export function mcpPromptCommands(servers: readonly McpServers[]): AvailableCommand[] {
  return servers
    .flatMap((mcp) => mcp.status())
    .flatMap((status) =>
      status.prompts.map((prompt) => ({
        name: `${status.name}:${prompt.name}`,
        description: (prompt.description ?? prompt.title ?? `The MCP prompt ${prompt.name} of ${status.name}`).split(
          '\n',
        )[0] as string,
        ...(prompt.arguments.length > 0
          ? {
              input: {
                hint: prompt.arguments
                  .map((argument) => (argument.required ? argument.name : `[${argument.name}]`))
                  .join(' '),
              },
            }
          : {}),
      })),
    );
}

/** What a prompt's text asked for, when it is `/server:prompt args`. */
export type McpPromptInvocation =
  /** The prompt the server filled in: the turn's input. */
  | { readonly input: string }
  /** Why it could not be given: the arguments, or the server's refusal. */
  | { readonly error: string };

/**
 * Fills in the prompt that `/server:prompt args` names (arguments by position in declared order, or
 * `name=value`). Resolves with undefined when the text names no server's prompt, so that it goes to the
 * model as it is. Never rejects.
 */
export async function invokeMcpPrompt(
  text: string,
  servers: readonly McpServers[],
): Promise<McpPromptInvocation | undefined> {
  const match = /^\/([\w-]+):(\S+)(?:\s+(.*))?$/s.exec(text.trim());
  if (!match || servers.length === 0) return undefined;
  const [, serverName = '', promptName = '', args = ''] = match;
  for (const mcp of servers) {
    const prompt = mcp
      .status()
      .find((status) => status.name === serverName)
      ?.prompts.find((candidate) => candidate.name === promptName);
    if (!prompt) continue;
    const { parsePromptArguments, promptInputText } = await import('@agentloop/mcp');
    const usage = [
      `/${serverName}:${promptName}`,
      ...prompt.arguments.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)),
    ].join(' ');
    try {
      const values = parsePromptArguments(args, prompt, usage);
      return { input: promptInputText(await mcp.getPrompt(serverName, promptName, values)) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }
  return undefined;
}

/**
 * The prompt with each resource link to a resource an MCP server lists (the editor offers the servers'
 * resources as links) replaced by the resource's content, embedded as the editor would embed a file's
 * text, cut at the server's `maxResourceBytes`; a link that no server lists, or that cannot be read,
 * stays a link. Never rejects.
 */
export async function embedMcpResources(
  prompt: readonly ContentBlock[],
  servers: readonly McpServers[],
): Promise<ContentBlock[]> {
  if (servers.length === 0 || !prompt.some((block) => block.type === 'resource_link')) return [...prompt];
  const { resourceContentsText } = await import('@agentloop/mcp');
  return Promise.all(
    prompt.map(async (block) => {
      if (block.type !== 'resource_link') return block;
      for (const mcp of servers) {
        const status = mcp
          .status()
          .find((candidate) => candidate.resources.some((resource) => resource.uri === block.uri));
        if (!status) continue;
        try {
          // Cut where read_resource and the CLI's @ mentions cut it: the server's own limit.
          const maxBytes = mcp.maxResourceBytes(status.name);
          const text = resourceContentsText(await mcp.readResource(status.name, block.uri), { maxBytes });
          return { type: 'resource', resource: { uri: block.uri, text } } satisfies ContentBlock;
        } catch {
          return block;
        }
      }
      return block;
    }),
  );
}
