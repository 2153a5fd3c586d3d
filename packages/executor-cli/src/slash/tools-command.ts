import { cutText, outputWidth } from '../render/index.js';
import type { SlashCommand } from './slash-command.js';

/** `/tools`: the tools the model can call. */
export const toolsCommand: SlashCommand = {
  name: 'tools',
  usage: '/tools',
  summary: 'List the tools the agent can call',
  run(_args, { agent, output, style }) {
    const entries = agent.tools.list();
    const width = Math.max(...entries.map((entry) => entry.definition.name.length));
    const room = outputWidth(output) - width - 6;
    const lines = entries.map(({ definition, loopControl }) => {
      const description = cutText(definition.description.split('\n')[0] ?? '', room).text;
      return `  ${style.bold(definition.name.padEnd(width))}  ${loopControl ? style.dim(description) : description}`;
    });
    output.write(
      `${style.bold(`Tools (${entries.length})`)} ${style.dim('— dimmed ones end the turn')}\n${lines.join('\n')}\n`,
    );
  },
};
