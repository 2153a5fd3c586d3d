import { formatUsageReport } from '../render/index.js';
import type { SlashCommand } from './slash-command.js';

/** `/usage`: tokens per model call and in total, the context, model and tool calls, compactions, cost, time. */
export const usageCommand: SlashCommand = {
  name: 'usage',
  usage: '/usage',
  summary: 'Show tokens, how full the context is, calls, compactions, cost and time',
  run(_args, { output, style, usage }) {
    output.write(formatUsageReport(usage(), style));
  },
};
