import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectInstructionsError } from './project-instructions-error.js';
import { readProjectInstructions } from './read-project-instructions.js';

let projectDir: string;

beforeEach(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'agentloop-prompts-'));
});

afterEach(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

describe('readProjectInstructions', () => {
  it('reads AGENTS.md and .agentloop/system_prompt.md, trimmed, with their paths', async () => {
    await writeFile(join(projectDir, 'AGENTS.md'), '\nRun npm test before you finish.\n');
    await mkdir(join(projectDir, '.agentloop'));
    await writeFile(join(projectDir, '.agentloop', 'system_prompt.md'), 'You are {{model}}.\n');

    expect(readProjectInstructions(projectDir)).toEqual({
      directory: projectDir,
      agentsMd: { path: join(projectDir, 'AGENTS.md'), text: 'Run npm test before you finish.' },
      systemPrompt: { path: join(projectDir, '.agentloop', 'system_prompt.md'), text: 'You are {{model}}.' },
    });
  });

  it('leaves missing files out', () => {
    expect(readProjectInstructions(projectDir)).toEqual({ directory: projectDir });
  });

  it('leaves a whitespace-only file out', async () => {
    await writeFile(join(projectDir, 'AGENTS.md'), '  \n\n');

    expect(readProjectInstructions(projectDir).agentsMd).toBeUndefined();
  });

  it('treats a missing project directory as a project without files', () => {
    expect(readProjectInstructions(join(projectDir, 'nope'))).toEqual({ directory: join(projectDir, 'nope') });
  });

  it('resolves a relative directory to an absolute one', () => {
    expect(readProjectInstructions('.').directory).toBe(process.cwd());
  });

  it('throws ProjectInstructionsError naming the path when a file cannot be read', async () => {
    // A directory where the file should be is unreadable for every user, root included.
    await mkdir(join(projectDir, 'AGENTS.md'));
    const path = join(projectDir, 'AGENTS.md');

    let error: unknown;
    try {
      readProjectInstructions(projectDir);
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(ProjectInstructionsError);
    expect(error).toMatchObject({ code: 'project_instructions_unreadable', path, cause: { code: 'EISDIR' } });
    expect((error as Error).message).toMatch(`Cannot read the instruction file ${path}: `);
  });
});
