import { outputWidth, wrapLine } from '../render/index.js';
import type { SlashCommand } from './slash-command.js';

/** `/help`: the commands and the keys. */
export const helpCommand: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  usage: '/help',
  summary: 'Show the commands and keys',
  run(_args, { output, style, commands }) {
    const width = Math.max(...commands.map((command) => command.usage.length));
    const columns = outputWidth(output);
    // A summary too long for the line goes on under itself, between words, rather than being broken
    // inside a word by the terminal.
    const lines = commands.map((command) =>
      wrapLine(`  ${style.cyan(command.usage.padEnd(width))}  ${command.summary}`, columns, ' '.repeat(width + 4)),
    );
    const keys =
      'Keys: Enter sends. While the agent works, Ctrl-C cancels the turn and text you type + Enter is queued for its next step. Ctrl-C on an empty prompt, or Ctrl-D, exits.';
    output.write(`${style.bold('Commands')}\n${lines.join('\n')}\n${style.dim(wrapLine(keys, columns, ''))}\n`);
  },
};
