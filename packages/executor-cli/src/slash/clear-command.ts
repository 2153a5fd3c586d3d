import type { SlashCommand } from './slash-command.js';

/** `/clear`: forgets the conversation. */
export const clearCommand: SlashCommand = {
  name: 'clear',
  usage: '/clear',
  summary: 'Forget the conversation and start afresh',
  run(_args, { clear, output, style }) {
    clear();
    output.write(`${style.green('✓')} Conversation cleared.\n`);
  },
};
