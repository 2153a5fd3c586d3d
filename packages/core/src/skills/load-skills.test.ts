import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSkills } from './load-skills.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'skills-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function writeSkill(folder: string, name: string, text: string): string {
  const directory = join(root, folder, name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'SKILL.md'), text);
  return directory;
}

const skillText = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nDo ${name}.\n`;

describe('loadSkills', () => {
  it('reads each subfolder with a SKILL.md, by name, with where it came from', () => {
    const pdf = writeSkill('a', 'pdf', skillText('pdf', 'PDFs.'));
    writeSkill('a', 'docx', skillText('docx', 'Word files.'));
    mkdirSync(join(root, 'a', 'not-a-skill'));
    const { skills, problems } = loadSkills([join(root, 'a')]);
    expect(problems).toEqual([]);
    expect(skills.map((skill) => skill.name)).toEqual(['docx', 'pdf']);
    expect(skills[1]).toEqual({
      name: 'pdf',
      description: 'PDFs.',
      instructions: 'Do pdf.',
      directory: pdf,
      source: join(root, 'a'),
    });
  });

  it('gives the first folder precedence for a name, and skips folders that do not exist', () => {
    writeSkill('project', 'pdf', skillText('pdf', 'The project’s.'));
    writeSkill('user', 'pdf', skillText('pdf', 'The user’s.'));
    const { skills } = loadSkills([join(root, 'missing'), join(root, 'project'), join(root, 'user')]);
    expect(skills.map((skill) => skill.description)).toEqual(['The project’s.']);
  });

  it('takes a folder that is itself a skill', () => {
    const directory = writeSkill('single', 'pdf', skillText('pdf', 'PDFs.'));
    expect(loadSkills([directory]).skills.map((skill) => skill.name)).toEqual(['pdf']);
  });

  it('reports a broken front matter with its file and what is wrong, and loads the others', () => {
    const broken = writeSkill('a', 'broken', '---\nname: broken\n---\nNo description.\n');
    writeSkill('a', 'pdf', skillText('pdf', 'PDFs.'));
    const { skills, problems } = loadSkills([join(root, 'a')]);
    expect(skills.map((skill) => skill.name)).toEqual(['pdf']);
    expect(problems).toEqual([
      { file: join(broken, 'SKILL.md'), message: 'has no description in its front matter: add "description: ..."' },
    ]);
  });
});
