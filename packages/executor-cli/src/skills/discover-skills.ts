import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadSkills, type Skill, type SkillProblem } from '@agentloop/core';
import type { LoadedConfig } from '../config/index.js';
import { isTrusted } from '../config/load-config.js';

/** The project's skills folders, relative to its root: where other agents keep theirs too. */
export const PROJECT_SKILLS_FOLDERS = [
  join('.agents', 'skills'),
  join('.agentloop', 'skills'),
  join('.claude', 'skills'),
] as const;

/** Where the session's skills are looked for; tests pass their own home and configuration directory. */
export interface SkillDiscoveryOptions {
  /** The project's root (the directory of `.agentloop/config.toml`, or the working directory). */
  projectDir: string;
  /** The merged configuration: `[skills]`, `trusted_projects`, and whether the project is trusted. */
  config: LoadedConfig;
  /** The user's configuration directory, whose `skills` folder is the user's own (the user file's directory). */
  userConfigDir: string;
  /** The home directory, for `~/.agents/skills` and `~/.claude/skills` (default: `os.homedir()`). */
  home?: string;
}

/** The session's skills, what was wrong with some, and the project folders left out for want of trust. */
export interface DiscoveredSkills {
  skills: Skill[];
  problems: SkillProblem[];
  /** Project folders that hold skills, skipped because the user has not trusted the project. */
  untrustedFolders: string[];
  /** The project's root, for the advice on trusting it. */
  projectDir: string;
}

/**
 * Finds the session's skills: the project's folders first (`.agents/skills`, `.agentloop/skills`,
 * `.claude/skills`, and the project file's `[skills] folders`), so that a project's skill wins over the
 * user's of the same name, then the user's (`skills` in the configuration directory, `~/.agents/skills`,
 * `~/.claude/skills`, and the user file's folders). A project's skills are instructions the model follows
 * and scripts it may run, so they load only when `trusted_projects` lists the project, as its plugins and
 * MCP servers do; otherwise its folders that hold skills are reported. `[skills] disabled` names are left
 * out, and `enabled = false` finds none. Never throws: a broken skill is a problem, the others load.
 */
export function discoverSkills(options: SkillDiscoveryOptions): DiscoveredSkills {
  const { config, projectDir } = options;
  const found: DiscoveredSkills = { skills: [], problems: [], untrustedFolders: [], projectDir };
  if (config.skills?.enabled === false) return found;
  const home = options.home ?? homedir();
  const userFolders = unique([
    join(options.userConfigDir, 'skills'),
    join(home, '.agents', 'skills'),
    join(home, '.claude', 'skills'),
    ...(config.skills?.folders ?? []).filter((folder) => !folder.project).map((folder) => folder.path),
  ]);
  // In the home directory, the project's folders are the user's own: they are read as the user's.
  const projectFolders = unique([
    ...PROJECT_SKILLS_FOLDERS.map((folder) => join(projectDir, folder)),
    ...(config.skills?.folders ?? []).filter((folder) => folder.project).map((folder) => folder.path),
  ]).filter((folder) => !userFolders.includes(folder));
  const trusted = config.projectTrusted === true || isTrusted(projectDir, config.trusted_projects ?? []);
  const folders = trusted ? [...projectFolders, ...userFolders] : userFolders;
  if (!trusted) {
    for (const folder of projectFolders) {
      const untrusted = loadSkills([folder]);
      if (untrusted.skills.length > 0 || untrusted.problems.length > 0) found.untrustedFolders.push(folder);
    }
  }
  const { skills, problems } = loadSkills(folders);
  const disabled = new Set(config.skills?.disabled ?? []);
  found.skills = skills.filter((skill) => !disabled.has(skill.name));
  found.problems = problems;
  return found;
}

function unique(folders: readonly string[]): string[] {
  return [...new Set(folders.map((folder) => resolve(folder)))];
}
