import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userConfigPath } from '../config/config-paths.js';
import type { LoadedConfig } from '../config/index.js';
import { discoverSkills } from './discover-skills.js';
import { skillWarnings } from './skill-warnings.js';

let root: string;
let home: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-discover-'));
  home = join(root, 'home');
  project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  vi.stubEnv('HOME', home);
  vi.stubEnv('XDG_CONFIG_HOME', join(root, 'xdg'));
});

afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

function writeSkill(folder: string, name: string, description = `The ${name} skill.`): void {
  mkdirSync(join(folder, name), { recursive: true });
  writeFileSync(join(folder, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nDo ${name}.\n`);
}

function config(overrides: Partial<LoadedConfig> = {}): LoadedConfig {
  return { plugins: [], providers: {}, files: [], ...overrides };
}

// The user's configuration directory as the CLI finds it: $XDG_CONFIG_HOME/agentloop.
const discover = (overrides: Partial<LoadedConfig> = {}) =>
  discoverSkills({ projectDir: project, config: config(overrides), userConfigDir: dirname(userConfigPath()) });

describe('discoverSkills', () => {
  it('finds skills in each of the user’s folders: the configuration directory, ~/.agents and ~/.claude', () => {
    writeSkill(join(root, 'xdg', 'agentloop', 'skills'), 'from-config-dir');
    writeSkill(join(home, '.agents', 'skills'), 'from-agents');
    writeSkill(join(home, '.claude', 'skills'), 'from-claude');
    const found = discover();
    expect(found.skills.map((skill) => [skill.name, skill.source])).toEqual([
      ['from-config-dir', join(root, 'xdg', 'agentloop', 'skills')],
      ['from-agents', join(home, '.agents', 'skills')],
      ['from-claude', join(home, '.claude', 'skills')],
    ]);
    expect(found.problems).toEqual([]);
  });

  it('finds a trusted project’s skills in .agents, .agentloop and .claude, before the user’s of the same name', () => {
    writeSkill(join(project, '.agents', 'skills'), 'one');
    writeSkill(join(project, '.agentloop', 'skills'), 'two');
    writeSkill(join(project, '.claude', 'skills'), 'three', 'The project’s.');
    writeSkill(join(home, '.claude', 'skills'), 'three', 'The user’s.');
    const found = discover({ trusted_projects: [project] });
    expect(found.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ['one', 'The one skill.'],
      ['two', 'The two skill.'],
      ['three', 'The project’s.'],
    ]);
    expect(found.untrustedFolders).toEqual([]);
  });

  it('leaves an untrusted project’s skills out and says how to trust it', () => {
    writeSkill(join(project, '.claude', 'skills'), 'project-skill');
    writeSkill(join(home, '.agents', 'skills'), 'user-skill');
    const found = discover();
    expect(found.skills.map((skill) => skill.name)).toEqual(['user-skill']);
    expect(found.untrustedFolders).toEqual([join(project, '.claude', 'skills')]);
    expect(skillWarnings(found)).toEqual([
      `The project's skills in ${join(project, '.claude', 'skills')} are not loaded: you have not trusted the project. To use them, add trusted_projects = [${JSON.stringify(project)}] to the user configuration (\`agentloop config path\` shows where it is).`,
    ]);
  });

  it('adds the [skills] folders, the project’s only when trusted, and leaves disabled names out', () => {
    writeSkill(join(root, 'team'), 'team-skill');
    writeSkill(join(root, 'project-extra'), 'extra-skill');
    writeSkill(join(home, '.agents', 'skills'), 'noisy');
    const skills = {
      folders: [
        { path: join(root, 'team'), project: false },
        { path: join(root, 'project-extra'), project: true },
      ],
      disabled: ['noisy'],
    };
    expect(discover({ skills }).skills.map((skill) => skill.name)).toEqual(['team-skill']);
    expect(discover({ skills, projectTrusted: true }).skills.map((skill) => skill.name)).toEqual([
      'extra-skill',
      'team-skill',
    ]);
  });

  it('finds none with enabled = false', () => {
    writeSkill(join(home, '.agents', 'skills'), 'user-skill');
    expect(discover({ skills: { enabled: false, folders: [], disabled: [] } }).skills).toEqual([]);
  });

  it('reports a broken skill with its file and fault, and loads the others', () => {
    const folder = join(home, '.agents', 'skills');
    writeSkill(folder, 'good');
    mkdirSync(join(folder, 'broken'), { recursive: true });
    writeFileSync(join(folder, 'broken', 'SKILL.md'), '---\nname: broken\ndescription: "unclosed\n---\n');
    const found = discover();
    expect(found.skills.map((skill) => skill.name)).toEqual(['good']);
    expect(skillWarnings(found)).toEqual([
      `Skill ${join(folder, 'broken', 'SKILL.md')} has a double-quoted value that does not end where it should on line 3 of the front matter: "unclosed; it is left out.`,
    ]);
  });

  it('reads the project folders of a project in the home directory as the user’s', () => {
    writeSkill(join(home, '.claude', 'skills'), 'mine');
    const found = discoverSkills({ projectDir: home, config: config(), userConfigDir: join(root, 'xdg', 'agentloop') });
    expect(found.skills.map((skill) => skill.name)).toEqual(['mine']);
    expect(found.untrustedFolders).toEqual([]);
  });
});
