import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@agentloop/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSkillTool } from './load-skill-tool.js';
import type { Skill } from './skill.js';

let root: string;
let skill: Skill;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'load-skill-'));
  const directory = join(root, 'pdf');
  mkdirSync(join(directory, 'scripts'), { recursive: true });
  writeFileSync(join(directory, 'SKILL.md'), '---\nname: pdf\ndescription: PDFs.\n---\nRun scripts/extract.py.');
  writeFileSync(join(directory, 'scripts', 'extract.py'), 'print("text")\n');
  writeFileSync(join(directory, 'reference.md'), '# Reference\n');
  writeFileSync(join(root, 'secret.txt'), 'secret\n');
  skill = { name: 'pdf', description: 'PDFs.', instructions: 'Run scripts/extract.py.', directory, source: root };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const context = {} as ToolContext;
const call = async (args: Record<string, unknown>) => loadSkillTool([skill]).execute(args, context);

describe('load_skill', () => {
  it('is read-only, so an approval policy lets it run', () => {
    expect(loadSkillTool([skill]).annotations).toMatchObject({ readOnly: true, destructive: false });
  });

  it('loads a skill: its instructions and the files of its folder', async () => {
    expect(await call({ name: 'pdf' })).toBe(
      `<skill name="pdf" directory="${skill.directory}">\nRun scripts/extract.py.\n\nFiles of this skill (read one with load_skill and \`file\`; paths are relative to ${skill.directory}):\n- reference.md\n- scripts/extract.py\n</skill>`,
    );
  });

  it('reads a file of the skill', async () => {
    expect(await call({ name: 'pdf', file: 'scripts/extract.py' })).toBe('print("text")\n');
  });

  it.each([
    ['../secret.txt', 'is outside the skill "pdf"\'s folder'],
    ['/etc/passwd', 'is outside the skill "pdf"\'s folder'],
    ['missing.md', 'has no file "missing.md"'],
  ])('refuses the file %s', async (file, message) => {
    await expect(call({ name: 'pdf', file })).rejects.toThrow(message);
  });

  it('refuses a link inside the folder that leads out of it', async () => {
    symlinkSync(join(root, 'secret.txt'), join(skill.directory as string, 'link.txt'));
    await expect(call({ name: 'pdf', file: 'link.txt' })).rejects.toThrow('leads outside the skill "pdf"\'s folder');
  });

  it('names the known skills when asked for an unknown one', async () => {
    await expect(call({ name: 'docx' })).rejects.toThrow('There is no skill "docx". The skills are: pdf.');
  });
});
