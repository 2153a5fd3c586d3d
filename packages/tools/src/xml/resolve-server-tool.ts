import type { RegisteredTool } from '../tool-registry.js';

/** The `server_name` of the agent's own tools in the XML protocol. */
export const LOCAL_SERVER_NAME = 'local';

/** Where an XML call goes: the registered tool's name, or why it cannot go anywhere, written for the model. */
export type ServerToolResolution = { ok: true; toolName: string } | { ok: false; message: string };

/**
 * Routes an XML call by its `server_name` and `tool_name`: `local` to the agent's own tools (those without
 * a server), a server's name to that server's tool (`Tool.server`), whose registered name is its native
 * one (`github__create_issue`). An unknown server, or a tool its server lacks, is refused with a message
 * listing what exists, so a block naming one server never runs another's tool of the same name. A local
 * name no tool has is passed on as it is: the run answers it as an unknown tool, listing the tools.
 * Never throws.
 */
export function resolveServerTool(
  tools: readonly RegisteredTool[],
  serverName: string,
  toolName: string,
): ServerToolResolution {
  if (serverName === LOCAL_SERVER_NAME) {
    if (tools.some((entry) => entry.tool.name === toolName && !entry.tool.server)) return { ok: true, toolName };
    const elsewhere = serverNamesOf(tools.filter((entry) => entry.tool.server?.toolName === toolName));
    if (elsewhere.length === 0) return { ok: true, toolName };
    return {
      ok: false,
      message:
        `"${toolName}" is not one of your own ("local") tools; it is a tool of server ${quoteList(elsewhere)}. ` +
        `Call it with "server_name": ${JSON.stringify(elsewhere[0])}.`,
    };
  }
  const onServer = tools.filter((entry) => entry.tool.server?.name === serverName);
  if (onServer.length === 0) {
    const servers = [LOCAL_SERVER_NAME, ...serverNamesOf(tools)];
    return {
      ok: false,
      message: `There is no server "${serverName}". The servers are ${quoteList(servers)} ("local" is your own tools).`,
    };
  }
  const match = onServer.find((entry) => entry.tool.server?.toolName === toolName);
  if (match) return { ok: true, toolName: match.tool.name };
  const names = onServer.map((entry) => entry.tool.server?.toolName ?? entry.tool.name);
  return { ok: false, message: `Server "${serverName}" has no tool "${toolName}". Its tools are ${quoteList(names)}.` };
}

function serverNamesOf(tools: readonly RegisteredTool[]): string[] {
  return [...new Set(tools.flatMap((entry) => (entry.tool.server ? [entry.tool.server.name] : [])))];
}

function quoteList(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}
