import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { Agent, Usage } from '@agentloop/core';

/** What a slash command works on: the session's agent and what its prompts used so far. */
export interface SlashCommandContext {
  agent: Agent;
  usage: Usage;
  prompts: number;
}

/** A command the editor offers in its prompt box (`/name`), answered by the executor, not the model. */
interface SlashCommand {
  readonly name: string;
  readonly description: string;
  /** The agent's message that answers it. */
  run(context: SlashCommandContext): string;
}

const COMMANDS: readonly SlashCommand[] = [
  {
    name: 'clear',
    description: 'Forget the conversation and start afresh',
    run: ({ agent }) => {
      agent.memory.clear();
      return 'Conversation cleared: the next prompt starts afresh.';
    },
  },
  {
    name: 'tools',
    description: 'List the tools the agent can call',
    run: ({ agent }) => {
      const lines = agent.tools
        .list()
        .map(({ tool }) => `- \`${tool.name}\`: ${(tool.description ?? '').split('\n')[0]?.split('. ')[0] ?? ''}`);
      return `The agent can call ${lines.length} tools:\n${lines.join('\n')}`;
    },
  },
  {
    name: 'usage',
    description: 'Show the tokens this session used',
    run: ({ usage, prompts }) =>
      `${prompts} ${prompts === 1 ? 'prompt' : 'prompts'} in this session: ${usage.inputTokens} input tokens (${usage.cacheReadTokens} read from the cache), ${usage.outputTokens} output tokens.`,
  },
];

/** The commands, for `available_commands_update`. */
export function availableCommands(): AvailableCommand[] {
  return COMMANDS.map(({ name, description }) => ({ name, description }));
}

/**
 * The command a prompt calls (`/clear`, alone on its line), or undefined: any other text, `/` included,
 * goes to the model.
 */
export function slashCommandOf(text: string): SlashCommand | undefined {
  const match = /^\/([a-z]+)\s*$/.exec(text.trim());
  return match ? COMMANDS.find((command) => command.name === match[1]) : undefined;
}
