import { outputWidth, wrapLine } from '../render/index.js';
import { mcpPromptCommands } from './mcp-prompt-commands.js';
import type { SlashCommand } from './slash-command.js';

/** `/help`: the commands and the keys. */
export const helpCommand: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  usage: '/help',
  summary: 'Show the commands and keys',
  run(_args, { agent, output, style, commands }) {
    // Tests of the layout give no agent; a session always has one by the time a command runs.
    const prompts = agent ? mcpPromptCommands(agent) : [];
    const width = Math.max(...[...commands, ...prompts].map((command) => command.usage.length));
    const columns = outputWidth(output);
    // A summary too long for the line goes on under itself, between words, rather than being broken
    // inside a word by the terminal.
    const describe = (command: SlashCommand) =>
      wrapLine(`  ${style.cyan(command.usage.padEnd(width))}  ${command.summary}`, columns, ' '.repeat(width + 4));
    const lines = commands.map(describe);
    // The MCP servers' prompts: each fills in a message and sends it as the next turn.
    if (prompts.length > 0) lines.push(style.bold('MCP prompts'), ...prompts.map(describe));
    const keys =
      'Keys: Enter sends; Tab completes a /command, @server:uri or $skill. While the agent works, Ctrl-C cancels the turn and text you type + Enter is queued for its next step. Ctrl-C on an empty prompt, or Ctrl-D, exits.';
    output.write(`${style.bold('Commands')}\n${lines.join('\n')}\n${style.dim(wrapLine(keys, columns, ''))}\n`);
  },
};
