import type { Agent } from '@agentloop/core';
import { mcpServersOf } from '../mcp/mcp-session-plugin.js';
import type { SlashCommand } from '../slash/index.js';
import type { CompletionSources } from './prompt-completer.js';

/**
 * What the interactive session completes from: its slash commands, and once the agent is made, its
 * skills and its MCP servers' prompts (`/server:prompt`, as mcpPromptCommands names them) and resources.
 * Nothing here asks a server: the MCP package keeps each server's lists as last listed, and lists them
 * again when the server says they changed (`list_changed`).
 */
export function sessionCompletionSources(agent: Promise<Agent>, commands: readonly SlashCommand[]): CompletionSources {
  return {
    commands: commands.flatMap((command) => [command.name, ...(command.aliases ?? [])]),
    skills: async () => ((await agent).skills ?? []).map((skill) => skill.name),
    servers: async () =>
      (mcpServersOf((await agent).tools)?.status() ?? []).map((status) => ({
        name: status.name,
        prompts: status.prompts.map((prompt) => prompt.name),
        resources: status.resources.map((resource) => resource.uri),
        resourceTemplates: status.resourceTemplates.map((template) => template.uriTemplate),
      })),
  };
}
