import { describeError, formatCompactionLine } from '../render/index.js';
import type { SlashCommand } from './slash-command.js';

/**
 * `/compact`: compacts the conversation now, as the agent does by itself before a request that would
 * fill the context window: the older steps become a summary, the task and the recent steps stay.
 */
export const compactCommand: SlashCommand = {
  name: 'compact',
  usage: '/compact',
  summary: 'Summarise the older part of the conversation to free context',
  async run(_args, { agent, output, style }) {
    output.write(style.dim('Compacting the conversation…\n'));
    try {
      output.write(`${formatCompactionLine(await agent.compact(), style)}\n`);
    } catch (error) {
      output.write(`${style.red('✗')} ${describeError(error)}\n`);
    }
  },
};
