import { homedir } from 'node:os';
import { sep } from 'node:path';
import { cutText, outputWidth, stripControls, wrapLine } from '../render/index.js';
// Not the folder's index: its discovery loads core, which the session's prompt must not wait for.
import { sessionSkillsOf } from '../skills/session-skills.js';
import { skillWarnings } from '../skills/skill-warnings.js';
import type { SlashCommand } from './slash-command.js';

/** `/skills`: the skills the model can load, with where each was found. */
export const skillsCommand: SlashCommand = {
  name: 'skills',
  usage: '/skills',
  summary: 'List the skills the agent can load ($name uses one in a message)',
  run(_args, { agent, output, style }) {
    const found = sessionSkillsOf(agent);
    // A skill's name and description come from a file of the project or the user: they are shown stripped.
    const entries = (agent.skills ?? []).map((skill) => ({
      name: stripControls(skill.name),
      description: stripControls(skill.description).replace(/\s+/g, ' '),
      source: skill.source === undefined ? 'the app' : shortPath(skill.source),
    }));
    const notes = found ? skillWarnings(found).map((line) => `${style.yellow('⚠')} ${stripControls(line)}\n`) : [];
    if (entries.length === 0) {
      output.write(
        `No skills. Put one (a folder with a SKILL.md) in the project's .agents/skills or in ~/.agents/skills.\n${notes.join('')}`,
      );
      return;
    }
    const width = Math.max(...entries.map((entry) => entry.name.length));
    const columns = outputWidth(output);
    const room = (columns - width - 4) * 2;
    const lines = entries.map(({ name, description, source }) =>
      wrapLine(
        `  ${style.bold(name.padEnd(width))}  ${cutText(description, room).text} ${style.dim(`(${source})`)}`,
        columns,
        ' '.repeat(width + 4),
      ),
    );
    output.write(
      `${style.bold(`Skills (${entries.length})`)} ${style.dim('— $name in a message uses one')}\n${lines.join('\n')}\n${notes.join('')}`,
    );
  },
};

function shortPath(path: string): string {
  const home = homedir();
  return path === home || path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}
