import { approvalCommand } from './approval-command.js';
import { clearCommand } from './clear-command.js';
import { compactCommand } from './compact-command.js';
import { exitCommand } from './exit-command.js';
import { helpCommand } from './help-command.js';
import { mcpCommand } from './mcp-command.js';
import { mcpPromptCommands } from './mcp-prompt-commands.js';
import { modelCommand } from './model-command.js';
import { protocolCommand } from './protocol-command.js';
import { skillsCommand } from './skills-command.js';
import type { SlashCommand, SlashContext } from './slash-command.js';
import { toolsCommand } from './tools-command.js';
import { usageCommand } from './usage-command.js';
import { verboseCommand } from './verbose-command.js';

/** The session's commands, in the order `/help` lists them. */
export const builtinSlashCommands: readonly SlashCommand[] = [
  helpCommand,
  toolsCommand,
  skillsCommand,
  mcpCommand,
  modelCommand,
  protocolCommand,
  approvalCommand,
  clearCommand,
  compactCommand,
  usageCommand,
  verboseCommand,
  exitCommand,
];

/**
 * A typed line split into a command name and its arguments; undefined when it is not a command. A line
 * that starts with a path (`/tmp/x is empty`) is not a command: names have no slash. An MCP prompt's
 * name is `server:prompt`.
 */
export function parseSlashCommand(line: string): { name: string; args: string } | undefined {
  const match = /^\/([\w?:-]+)(?:\s+(.*))?$/s.exec(line.trim());
  return match ? { name: (match[1] as string).toLowerCase(), args: match[2] ?? '' } : undefined;
}

/** The command a name calls, by name or alias. */
export function findSlashCommand(commands: readonly SlashCommand[], name: string): SlashCommand | undefined {
  return commands.find((command) => command.name.toLowerCase() === name || command.aliases?.includes(name));
}

/**
 * Runs a typed command line. Returns false when the line is not a command; an unknown command is
 * answered with a hint and counts as handled.
 */
export async function runSlashCommand(line: string, context: SlashContext): Promise<boolean> {
  const parsed = parseSlashCommand(line);
  if (!parsed) return false;
  const command =
    findSlashCommand(context.commands, parsed.name) ??
    (parsed.name.includes(':') ? findSlashCommand(mcpPromptCommands(context.agent), parsed.name) : undefined);
  if (!command) {
    context.output.write(`${context.style.red('✗')} Unknown command /${parsed.name}. /help lists the commands.\n`);
    return true;
  }
  await command.run(parsed.args, context);
  return true;
}
