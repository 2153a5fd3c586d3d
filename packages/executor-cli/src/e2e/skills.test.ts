// End to end: the built `agentloop` command in tmux finds the user's skills, leaves an untrusted
// project's out with a warning, lists them with /skills, and hands a `$name` skill to the model.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli-fixture.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/;
const terminal = useTerminalTest('skills');

function writeSkill(folder: string, name: string, description: string, body: string): void {
  mkdirSync(join(folder, name), { recursive: true });
  writeFileSync(join(folder, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

describe.skipIf(!tmuxAvailable())('skills in a terminal (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('lists the user’s skills with /skills, warns of an untrusted project’s, and injects $name', async () => {
    const workspace = terminal.workspace();
    writeSkill(join(workspace.configHome, 'agentloop', 'skills'), 'pdf', 'Read PDF files.', 'Use pdftotext -layout.');
    writeSkill(join(workspace.project, '.claude', 'skills'), 'deploy', 'Deploy the app.', 'Run ./deploy.sh.');
    const server = await terminal.server();
    server.push({ toolCalls: [{ name: 'converse', arguments: { message: 'Read it.' } }] });
    const tmux = terminal.startTmux(
      workspace.commandLine(['--provider', 'openai', '--base-url', server.url, '--model', 'test-model']),
    );
    await tmux.waitFor(PROMPT);
    tmux.type('/skills');
    tmux.press('Enter');
    const listing = await tmux.waitFor(/Skills \(1\)[\s\S]*\n›$/);
    expect(listing).toMatch(/ {2}pdf {2}Read PDF files\. \(~\/config\/agentloop\/skills\)/);
    expect(listing).toContain("The project's skills in");
    expect(listing).toContain('add trusted_projects = [');
    tmux.type('Summarise $pdf report.pdf');
    tmux.press('Enter');
    await tmux.waitFor(/Read it\.[\s\S]*\n›$/);
    const request = server.requests[0];
    expect(request?.messages[0]).toMatchObject({ role: 'system' });
    expect(JSON.stringify(request?.messages[0])).toContain('- pdf: Read PDF files.');
    expect(JSON.stringify(request?.messages[0])).not.toContain('deploy');
    const last = request?.messages.at(-1) as { content: unknown };
    expect(JSON.stringify(last.content)).toContain('Summarise $pdf report.pdf');
    expect(JSON.stringify(last.content)).toContain('Use pdftotext -layout.');
    expect(request?.tools?.map((tool: { function: { name: string } }) => tool.function.name)).toContain('load_skill');
  }, 60_000);
});
