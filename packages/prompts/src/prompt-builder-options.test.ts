// The PromptBuilder's instruction options (base, project files, developer, AGENTS.md, environment).
// prompt-builder.test.ts covers the builder's section list, `use`, `remove` and caching.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolDefinition } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EnvironmentContext } from './instructions/environment-context.js';
import { ProjectInstructionsError } from './instructions/project-instructions-error.js';
import { defaultPromptSections, PromptBuilder } from './prompt-builder.js';
import type { PromptContext } from './prompt-context.js';

const tools: readonly ToolDefinition[] = [
  { name: 'search', description: 'Search.', inputSchema: { type: 'object', properties: {} } },
];
const native: PromptContext = { tools, protocol: 'native', provider: 'anthropic', model: 'claude-sonnet-4-5' };

let projectDir: string;

beforeEach(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'agentloop-builder-'));
});

afterEach(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

async function writeProjectFiles(files: { agentsMd?: string; systemPrompt?: string }): Promise<void> {
  if (files.agentsMd !== undefined) await writeFile(join(projectDir, 'AGENTS.md'), files.agentsMd);
  if (files.systemPrompt !== undefined) {
    await mkdir(join(projectDir, '.agentloop'), { recursive: true });
    await writeFile(join(projectDir, '.agentloop', 'system_prompt.md'), files.systemPrompt);
  }
}

describe('PromptBuilder instruction options', () => {
  it('renders the same native prompt as before when no instruction option is given', () => {
    const prompt = new PromptBuilder({ systemPrompt: 'Be brief.' }).build(native);

    expect([...prompt.matchAll(/^# .+$/gm)].map((match) => match[0])).toEqual([
      '# How you work',
      '# The agent loop',
      '# Thinking',
    ]);
    expect(prompt).toContain('\n\nBe brief.\n\n');
  });

  it('replaces the base instructions with baseInstructions, variables substituted', () => {
    const prompt = new PromptBuilder({
      baseInstructions: 'You are {{model}} from {{provider}}; tools: {{tools}}.',
    }).build(native);

    expect(prompt.startsWith('You are claude-sonnet-4-5 from anthropic; tools: search.\n\n')).toBe(true);
    expect(prompt).not.toContain('# How you work');
  });

  it('reads the project system_prompt.md and AGENTS.md from projectDir', async () => {
    await writeProjectFiles({ systemPrompt: 'Project prompt for {{model}}.', agentsMd: 'Run the tests.' });

    const prompt = new PromptBuilder({ projectDir, baseInstructions: 'App base.' }).build(native);

    expect(prompt.startsWith('Project prompt for claude-sonnet-4-5.\n\n')).toBe(true);
    expect(prompt).not.toContain('App base.');
    expect(prompt).toContain(
      `# AGENTS.md instructions for ${projectDir}\n<INSTRUCTIONS>\nRun the tests.\n</INSTRUCTIONS>`,
    );
  });

  it('reads the files once, at construction, not when building', async () => {
    await writeProjectFiles({ agentsMd: 'First version.' });
    const builder = new PromptBuilder({ projectDir });
    await writeProjectFiles({ agentsMd: 'Second version.' });

    expect(builder.build(native)).toContain('First version.');
    expect(builder.build({ ...native, model: 'other' })).toContain('First version.');
  });

  it('leaves the sections out for a project without files', () => {
    const builder = new PromptBuilder({ projectDir });

    expect(builder.sections.map((section) => section.id)).not.toContain('user-instructions');
    expect(builder.build(native)).toBe(new PromptBuilder().build(native));
  });

  it('throws ProjectInstructionsError from the constructor for an unreadable file', async () => {
    await mkdir(join(projectDir, 'AGENTS.md'));

    expect(() => new PromptBuilder({ projectDir })).toThrow(ProjectInstructionsError);
  });

  it('orders the layers: base, app prompt, developer, AGENTS.md, loop guidance, thinking, environment', async () => {
    await writeProjectFiles({ agentsMd: 'Project rules.' });
    const prompt = new PromptBuilder({
      projectDir,
      systemPrompt: 'App prompt.',
      developerInstructions: 'Developer rules.',
      environment: { cwd: projectDir },
    }).build(native);
    const markers = [
      '# How you work',
      'App prompt.',
      '# Developer instructions\nDeveloper rules.',
      '# AGENTS.md',
      '# The agent loop',
      '# Thinking',
      '<environment_context>',
    ];
    const positions = markers.map((marker) => prompt.indexOf(marker));

    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(prompt.endsWith(`<environment_context>\n  <cwd>${projectDir}</cwd>\n</environment_context>`)).toBe(true);
  });

  it('puts the XML sections after the loop guidance in XML mode', () => {
    const prompt = new PromptBuilder({ developerInstructions: 'Developer rules.' }).build({
      ...native,
      protocol: 'xml',
    });

    expect(prompt.indexOf('# The agent loop')).toBeLessThan(prompt.indexOf('# Calling tools'));
    expect(prompt.indexOf('# Calling tools')).toBeLessThan(prompt.indexOf('# Tools'));
    expect(prompt.indexOf('# Tools')).toBeLessThan(prompt.indexOf('# Thinking'));
  });

  it('wraps an environment snapshot in an EnvironmentContext and exposes it', () => {
    const builder = new PromptBuilder({ environment: { cwd: '/repo' } });

    expect(builder.environment).toBeInstanceOf(EnvironmentContext);
    expect(builder.environment?.diff({ cwd: '/repo/sub' })).toBe(
      '<environment_diff>\n  <cwd>/repo/sub</cwd>\n</environment_diff>',
    );
  });

  it('uses a given EnvironmentContext as it is, and keeps the prompt unchanged after a diff', () => {
    const environment = new EnvironmentContext({ cwd: '/repo', shell: 'bash' });
    const builder = new PromptBuilder({ environment });
    const before = builder.build(native);
    environment.diff({ cwd: '/other', shell: 'zsh' });

    expect(builder.environment).toBe(environment);
    expect(new PromptBuilder({ environment }).build(native)).toBe(before);
  });

  it('has no environment without the option', () => {
    expect(new PromptBuilder().environment).toBeUndefined();
  });

  it('ignores the instruction options when sections are given', () => {
    const builder = new PromptBuilder({
      sections: [{ id: 'only', render: () => 'Only.' }],
      developerInstructions: 'ignored',
    });

    expect(builder.build(native)).toBe('Only.');
  });
});

describe('defaultPromptSections', () => {
  it('still takes the app system prompt alone', () => {
    const sections = defaultPromptSections('Be brief.');

    expect(sections.find((section) => section.id === 'user-system-prompt')?.render(native)).toBe('Be brief.');
  });

  it('lists the XML sections right after the loop guidance', () => {
    const ids = defaultPromptSections().map((section) => section.id);

    expect(ids.slice(ids.indexOf('agent-loop-guidance'))).toEqual([
      'agent-loop-guidance',
      'xml-tool-format',
      'xml-tools',
      'chain-of-thought',
    ]);
  });
});
