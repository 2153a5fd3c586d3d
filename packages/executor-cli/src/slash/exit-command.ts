import type { SlashCommand } from './slash-command.js';

/** `/exit`: ends the session. */
export const exitCommand: SlashCommand = {
  name: 'exit',
  aliases: ['quit'],
  usage: '/exit',
  summary: 'End the session (Ctrl-D does too)',
  run(_args, context) {
    context.exit();
  },
};
