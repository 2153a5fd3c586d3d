import { formatUsageReport } from '../render/index.js';
import type { SlashCommand } from './slash-command.js';

/** `/usage`: tokens per model call and in total, tool calls, and wall time. */
export const usageCommand: SlashCommand = {
  name: 'usage',
  usage: '/usage',
  summary: 'Show tokens per step and in total, tool calls and time',
  run(_args, { output, style, usage }) {
    output.write(formatUsageReport(usage(), style));
  },
};
