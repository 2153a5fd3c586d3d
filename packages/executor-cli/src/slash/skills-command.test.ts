import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { rememberSkills } from '../skills/session-skills.js';
import { MemoryOutput } from '../test-support/memory-output.js';
import { skillsCommand } from './skills-command.js';
import type { SlashContext } from './slash-command.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-skills-command-'));
  mkdirSync(join(root, 'pdf'));
  writeFileSync(join(root, 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: Read PDF files.\n---\nUse pdftotext.');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function run(agent: DefaultAgent): Promise<string> {
  const output = new MemoryOutput(true, 100);
  await skillsCommand.run('', { agent, output, style: createStyle(false) } as unknown as SlashContext);
  return output.text;
}

describe('/skills', () => {
  it('lists each skill with its description and where it was found', async () => {
    const agent = new DefaultAgent(new ScriptedProvider([]), {
      skills: [root, { name: 'greet', description: 'Greets.', instructions: 'Say hello.' }],
    });
    expect((await run(agent)).split('\n')).toEqual([
      'Skills (2) — $name in a message uses one',
      `  pdf    Read PDF files. (${root})`,
      '  greet  Greets. (the app)',
      '',
    ]);
  });

  it('says there are none, and why a project’s were left out', async () => {
    const agent = new DefaultAgent(new ScriptedProvider([]));
    rememberSkills(agent, {
      skills: [],
      problems: [],
      untrustedFolders: [join(root, '.claude', 'skills')],
      projectDir: root,
    });
    const text = await run(agent);
    expect(text).toContain("No skills. Put one (a folder with a SKILL.md) in the project's .agents/skills");
    expect(text).toContain(`add trusted_projects = [${JSON.stringify(root)}]`);
  });
});
