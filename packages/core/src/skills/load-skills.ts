import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseSkillFile } from './parse-skill-file.js';
import type { LoadedSkills, Skill, SkillProblem } from './skill.js';

/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md';

/**
 * Reads the skills of some folders, in order: each folder's subfolders that hold a SKILL.md (a folder that
 * holds one itself is a skill too). A folder that does not exist has none. A skill whose name an earlier
 * one has is left out, so the first folder wins (a project's skill over the user's of the same name).
 * Never throws: a SKILL.md that cannot be read or whose front matter is broken is a problem that names the
 * file and what is wrong, and the others still load. Reads the disk synchronously, once, like the
 * project's instruction files: a skill's text is then in memory for the prompt and `load_skill`.
 */
export function loadSkills(folders: readonly string[]): LoadedSkills {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const names = new Set<string>();
  const add = (skill: Skill) => {
    if (names.has(skill.name)) return;
    names.add(skill.name);
    skills.push(skill);
  };
  for (const folder of folders) {
    const source = resolve(folder);
    for (const directory of skillDirectories(source, problems)) {
      const skill = readSkill(directory, source, problems);
      if (skill) add(skill);
    }
  }
  return { skills, problems };
}

/** The folder itself when it is a skill, else its subfolders that hold a SKILL.md, by name. */
function skillDirectories(folder: string, problems: SkillProblem[]): string[] {
  if (isFile(join(folder, SKILL_FILE))) return [folder];
  let entries: string[];
  try {
    entries = readdirSync(folder).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      problems.push({ file: folder, message: `cannot be read (${(error as Error).message})` });
    }
    return [];
  }
  return entries
    .filter((entry) => !entry.startsWith('.'))
    .map((entry) => join(folder, entry))
    .filter((directory) => isFile(join(directory, SKILL_FILE)));
}

function readSkill(directory: string, source: string, problems: SkillProblem[]): Skill | undefined {
  const file = join(directory, SKILL_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push({ file, message: `cannot be read (${(error as Error).message})` });
    return undefined;
  }
  try {
    const { name, description, instructions } = parseSkillFile(text);
    return { name, description, instructions, directory, source };
  } catch (error) {
    problems.push({ file, message: (error as Error).message });
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
