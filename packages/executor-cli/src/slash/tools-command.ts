import { cutText, outputWidth, stripControls, wrapLine } from '../render/index.js';
import type { SlashCommand } from './slash-command.js';

/** `/tools`: the tools the model can call. */
export const toolsCommand: SlashCommand = {
  name: 'tools',
  usage: '/tools',
  summary: 'List the tools the agent can call',
  run(_args, { agent, output, style }) {
    // A tool's name and description come from a plugin or an MCP server: they are shown stripped.
    const entries = agent.tools.list().map(({ definition, loopControl }) => ({
      name: stripControls(definition.name),
      description: stripControls(definition.description),
      loopControl,
    }));
    const width = Math.max(...entries.map((entry) => entry.name.length));
    const columns = outputWidth(output);
    // The description's first line, wrapped under itself between words; past two rows it is cut after a
    // whole word, so that the list stays short enough to read at a glance.
    const room = (columns - width - 4) * 2;
    const lines = entries.map(({ name, description: text, loopControl }) => {
      const description = cutText(text.split('\n')[0] ?? '', room).text;
      return wrapLine(
        `  ${style.bold(name.padEnd(width))}  ${loopControl ? style.dim(description) : description}`,
        columns,
        ' '.repeat(width + 4),
      );
    });
    output.write(
      `${style.bold(`Tools (${entries.length})`)} ${style.dim('— dimmed ones end the turn')}\n${lines.join('\n')}\n`,
    );
  },
};
