import type { SlashCommand } from './slash-command.js';

/** `/verbose`: switches verbose mode. */
export const verboseCommand: SlashCommand = {
  name: 'verbose',
  usage: '/verbose [on|off]',
  summary: 'Show thinking whole and log model requests and tool calls to stderr',
  run(args, context) {
    const wanted = args.trim().toLowerCase();
    if (wanted !== '' && wanted !== 'on' && wanted !== 'off') {
      context.output.write(`${context.style.red('✗')} Say /verbose on or /verbose off (or /verbose to switch).\n`);
      return;
    }
    context.verbose = wanted === '' ? !context.verbose : wanted === 'on';
    context.output.write(`Verbose mode ${context.style.bold(context.verbose ? 'on' : 'off')}.\n`);
  },
};
