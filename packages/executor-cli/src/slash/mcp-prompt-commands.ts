import type { Agent } from '@agentloop/core';
import type { McpPromptSummary } from '@agentloop/mcp';
import { mcpServersOf } from '../mcp/mcp-session-plugin.js';
import { describeError, stripControls } from '../render/index.js';
import type { SlashCommand } from './slash-command.js';

/**
 * The MCP servers' prompts as commands, `/server:prompt args` (see parsePromptArguments): the server fills
 * the prompt in and its messages become the turn's input. Made from the servers' current lists, so a
 * prompt a server adds is a command at once. Names come from the servers: shown stripped.
 */
export function mcpPromptCommands(agent: Agent): SlashCommand[] {
  const servers = mcpServersOf(agent.tools);
  if (!servers) return [];
  return servers.status().flatMap((status) => status.prompts.map((prompt) => promptCommand(status.name, prompt)));
}

function promptCommand(server: string, prompt: McpPromptSummary): SlashCommand {
  const name = `${server}:${prompt.name}`;
  const usage = stripControls(
    [
      `/${name}`,
      ...prompt.arguments.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)),
    ].join(' '),
  );
  return {
    name,
    usage,
    summary: stripControls(
      (prompt.description ?? prompt.title ?? `The MCP prompt ${prompt.name}`).split('\n')[0] ?? '',
    ),
    async run(args, { agent, output, style, submit }) {
      // Loaded here: the MCP package is loaded only in a session with servers, where it is by now.
      const { parsePromptArguments, promptInputText } = await import('@agentloop/mcp');
      let values: Record<string, string>;
      try {
        values = parsePromptArguments(args, prompt, usage);
      } catch (error) {
        output.write(`${style.red('✗')} ${stripControls((error as Error).message)}\n`);
        return;
      }
      const servers = mcpServersOf(agent.tools);
      if (!servers || !submit) {
        output.write(`${style.red('✗')} /${stripControls(name)} cannot run here: the session has no MCP servers.\n`);
        return;
      }
      try {
        const filled = await servers.getPrompt(server, prompt.name, values);
        const input = promptInputText(filled);
        if (input.trim() === '') {
          output.write(`${style.red('✗')} The MCP prompt /${stripControls(name)} gave no text; nothing was sent.\n`);
          return;
        }
        submit(input);
      } catch (error) {
        output.write(`${style.red('✗')} ${stripControls(describeError(error))}\n`);
      }
    },
  };
}
