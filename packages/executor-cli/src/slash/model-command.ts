import { stripControls } from '../render/index.js';
import { redactUrlCredentials } from '../verbose/redact.js';
import type { SlashCommand } from './slash-command.js';

/** `/model`: shows the provider and model, or switches them for the next model call. */
export const modelCommand: SlashCommand = {
  name: 'model',
  usage: '/model [provider:model]',
  summary: 'Show or switch the provider and model (e.g. /model anthropic:claude-sonnet-4-6)',
  async run(args, context) {
    const { output, style } = context;
    const reference = args.trim();
    if (!reference) {
      output.write(
        `Model: ${style.bold(context.modelLabel())}\n${style.dim('Switch with /model provider:model, or /model name for another model of the same provider.')}\n`,
      );
      return;
    }
    try {
      const label = await context.switchModel(reference);
      output.write(
        `${style.green('✓')} Now using ${style.bold(stripControls(label))}. The conversation goes on with it.\n`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      output.write(`${style.red('✗')} ${redactUrlCredentials(stripControls(message))}\n`);
    }
  },
};
