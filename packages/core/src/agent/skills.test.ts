import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, ToolRegistry } from '@agentloop/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, scriptedAgent } from '../test-support/agent-harness.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agent-skills-'));
  const directory = join(root, 'pdf');
  mkdirSync(directory);
  writeFileSync(join(directory, 'SKILL.md'), '---\nname: pdf\ndescription: Read PDF files.\n---\nUse pdftotext.');
  writeFileSync(join(directory, 'forms.md'), 'Fill forms with care.');
  mkdirSync(join(root, 'broken'));
  writeFileSync(join(root, 'broken', 'SKILL.md'), 'no front matter');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const textOnly = { capabilities: { nativeTools: false } };

function block(toolName: string, args: unknown): string {
  return `<tool>\n${JSON.stringify({ server_name: 'local', tool_name: toolName, arguments: args })}\n</tool>`;
}

describe('skills in the loop', () => {
  it('loads a folder’s skills, reports the broken one, and offers load_skill', () => {
    const { agent } = scriptedAgent([], { skills: [root] });
    expect(agent.skills.map((skill) => skill.name)).toEqual(['pdf']);
    expect(agent.skillProblems).toEqual([
      { file: join(root, 'broken', 'SKILL.md'), message: expect.stringContaining('has no front matter') },
    ]);
    expect(agent.tools.get('load_skill')).toBeDefined();
  });

  it('has no load_skill tool and no listing without skills', async () => {
    const { agent, provider } = scriptedAgent([complete('ok')]);
    await agent.run('go');
    expect(agent.tools.get('load_skill')).toBeUndefined();
    expect(provider.requests[0]?.systemPrompt).not.toContain('# Skills');
  });

  it('natively: lists the skill, loads its body then a file on demand, with a byte-identical prompt', async () => {
    const { agent, provider } = scriptedAgent(
      [
        { toolCalls: [{ name: 'load_skill', arguments: { name: 'pdf' } }] },
        { toolCalls: [{ name: 'load_skill', arguments: { name: 'pdf', file: 'forms.md' } }] },
        complete('done'),
      ],
      { skills: [root], approval: 'read-only' },
    );
    const result = await agent.run('Fill in the PDF form');
    expect(result.exit).toBe('task_completion');
    const [first, second, third] = provider.requests;
    expect(first?.systemPrompt).toContain('- pdf: Read PDF files.');
    expect(first?.tools.map((tool) => tool.name)).toContain('load_skill');
    expect(second?.systemPrompt).toBe(first?.systemPrompt);
    expect(third?.systemPrompt).toBe(first?.systemPrompt);
    expect(JSON.stringify(second?.messages)).toContain('Use pdftotext.');
    expect(JSON.stringify(third?.messages)).toContain('Fill forms with care.');
  });

  it('in XML mode: lists load_skill among the tools and runs it from a <tool> block', async () => {
    const { agent, provider } = scriptedAgent(
      [{ text: block('load_skill', { name: 'pdf' }) }, { text: block('task_completion', { result: 'ok' }) }],
      { skills: [root] },
      textOnly,
    );
    await agent.run('Read the PDF');
    expect(agent.activeToolProtocol).toBe('xml');
    const [first, second] = provider.requests;
    expect(first?.systemPrompt).toContain('- pdf: Read PDF files.');
    expect(first?.systemPrompt).toContain('## load_skill');
    expect(second?.systemPrompt).toBe(first?.systemPrompt);
    expect(JSON.stringify(second?.messages)).toContain('Use pdftotext.');
  });

  it('adds a skill the user names as $name to that turn’s input, and leaves $PATH alone', async () => {
    const { agent, provider } = scriptedAgent([complete('ok'), complete('ok')], { skills: [root] });
    await agent.run('Use $pdf on report.pdf');
    await agent.run('echo $PATH');
    const firstInput = provider.requests[0]?.messages.at(-1);
    expect(firstInput?.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(/^Use \$pdf on report\.pdf\n\n<skill name="pdf" .*>\nUse pdftotext\./s),
      },
    ]);
    expect(provider.requests[1]?.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'echo $PATH' }]);
  });

  it('shares a registry with another agent of the same composition, and refuses an app’s own load_skill', () => {
    const tools = new ToolRegistry();
    scriptedAgent([], { skills: [root], tools });
    const second = scriptedAgent([], { skills: [root], tools }).agent;
    expect(second.tools.list().filter((tool) => tool.definition.name === 'load_skill')).toHaveLength(1);
    const own = defineTool({ name: 'load_skill', description: 'Mine.', parameters: z.object({}), execute: () => '' });
    expect(() => scriptedAgent([], { skills: [root], tools: [own] })).toThrow('load_skill');
  });

  it('takes skill objects of the app, and refuses one without a valid name', () => {
    const { agent } = scriptedAgent([], {
      skills: [{ name: 'greet', description: 'Greets.', instructions: 'Say hello.' }, root],
    });
    expect(agent.skills.map((skill) => skill.name)).toEqual(['greet', 'pdf']);
    expect(() => scriptedAgent([], { skills: [{ name: 'Bad Name', description: 'x', instructions: 'y' }] })).toThrow(
      'The skill name "Bad Name" is not valid',
    );
  });
});
