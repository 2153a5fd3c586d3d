import { type Dirent, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Tool, ToolRegistry } from '@agentloop/tools';
import { defineTool } from '@agentloop/tools';
import { SKILL_FILE } from './load-skills.js';
import type { Skill } from './skill.js';

/** The name of the tool that loads a skill. */
export const LOAD_SKILL_TOOL_NAME = 'load_skill';

/** The most files of a skill's folder its loaded text lists. */
const MAX_LISTED_FILES = 200;

/** The load_skill tools this module made, told apart from an app's own tool of that name. */
const loadSkillTools = new WeakSet<Tool>();

/**
 * Registers `load_skill` over these skills. The registry may be a composition's, shared by the agents of
 * its sessions: the tool an earlier one registered is replaced, not refused as a duplicate. An app's own
 * tool of that name is still refused (ToolRegistry throws), since the model could not tell them apart.
 */
export function registerLoadSkillTool(registry: ToolRegistry, skills: readonly Skill[]): void {
  const existing = registry.get(LOAD_SKILL_TOOL_NAME);
  if (existing && loadSkillTools.has(existing.tool)) registry.unregister(LOAD_SKILL_TOOL_NAME);
  const tool = loadSkillTool(skills);
  loadSkillTools.add(tool);
  registry.register(tool);
}

/**
 * The `load_skill` tool over some skills: with `name`, the skill's instructions and the files of its
 * folder; with `file` too, that file's text. Read-only, so an approval policy lets it run. A file outside
 * the skill's folder (`..`, an absolute path, a link that leads out) is refused, as is an unknown skill;
 * each failure is an error result that says what to do.
 */
export function loadSkillTool(skills: readonly Skill[]): Tool {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return defineTool({
    name: LOAD_SKILL_TOOL_NAME,
    description:
      'Load a skill listed under "# Skills": its instructions, and the files that come with it. Call again with `file` to read one of those files.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The skill, as listed' },
        file: {
          type: 'string',
          description:
            "A file of the skill's folder, relative to it (as the skill lists them); leave out to load the skill",
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnly: true, destructive: false, openWorld: false },
    execute: (args) => {
      const name = String(args.name);
      const skill = byName.get(name);
      if (!skill) {
        throw new Error(`There is no skill "${name}". The skills are: ${[...byName.keys()].join(', ') || 'none'}.`);
      }
      return args.file === undefined ? formatSkill(skill) : readSkillFile(skill, String(args.file));
    },
  });
}

/** A skill's instructions as the model sees them when it loads one, or the user names it. */
export function formatSkill(skill: Skill): string {
  const files = skill.directory === undefined ? [] : listFiles(skill.directory);
  const header =
    skill.directory === undefined
      ? `<skill name="${skill.name}">`
      : `<skill name="${skill.name}" directory="${skill.directory}">`;
  const listing =
    files.length === 0
      ? ''
      : `\n\nFiles of this skill (read one with load_skill and \`file\`; paths are relative to ${skill.directory}):\n${files.map((file) => `- ${file}`).join('\n')}`;
  return `${header}\n${skill.instructions}${listing}\n</skill>`;
}

function readSkillFile(skill: Skill, file: string): string {
  if (skill.directory === undefined) {
    throw new Error(`The skill "${skill.name}" has no files: it was given in code. Load it without \`file\`.`);
  }
  const root = realpathSync(skill.directory);
  const path = resolve(root, file);
  if (!isInside(root, path)) {
    throw new Error(
      `"${file}" is outside the skill "${skill.name}"'s folder: give a path relative to it, as the skill lists.`,
    );
  }
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new Error(`The skill "${skill.name}" has no file "${file}". Load the skill to see its files.`);
  }
  // A link inside the folder may point anywhere; what it reaches must be inside too.
  if (!isInside(root, real)) {
    throw new Error(`"${file}" leads outside the skill "${skill.name}"'s folder, so it is not read.`);
  }
  try {
    return readFileSync(real, 'utf8');
  } catch (error) {
    throw new Error(`"${file}" of the skill "${skill.name}" cannot be read (${(error as Error).message}).`);
  }
}

function isInside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest !== '' && !isAbsolute(rest) && rest !== '..' && !rest.startsWith(`..${sep}`);
}

/** The files of a skill's folder, relative to it and sorted, without SKILL.md and hidden entries. */
function listFiles(directory: string): string[] {
  const files: string[] = [];
  const walk = (folder: string, prefix: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (files.length >= MAX_LISTED_FILES) return;
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(join(folder, entry.name), path);
      else if (!(prefix === '' && entry.name === SKILL_FILE)) files.push(path);
    }
  };
  walk(directory, '');
  return files;
}
