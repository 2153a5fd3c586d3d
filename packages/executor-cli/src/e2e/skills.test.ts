// End to end: the built `agentloop` command in tmux finds the user's skills, leaves an untrusted
// project's out with a warning, lists them with /skills, and hands a `$name` skill to the model.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { TmuxSession, tmuxAvailable } from '../test-support/tmux-session.js';

const SOCKET = `agentloop-e2e-skills-${process.pid}`;
const PROMPT = /\n›$/;
let tmux: TmuxSession | undefined;
let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;

function writeSkill(folder: string, name: string, description: string, body: string): void {
  mkdirSync(join(folder, name), { recursive: true });
  writeFileSync(join(folder, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

describe.skipIf(!tmuxAvailable())('skills in a terminal (tmux)', () => {
  beforeAll(() => assertBuilt());

  afterEach(async () => {
    tmux?.kill();
    await server?.close();
    workspace?.remove();
    TmuxSession.killServer(SOCKET);
  });

  it('lists the user’s skills with /skills, warns of an untrusted project’s, and injects $name', async () => {
    workspace = new CliWorkspace();
    writeSkill(join(workspace.configHome, 'agentloop', 'skills'), 'pdf', 'Read PDF files.', 'Use pdftotext -layout.');
    writeSkill(join(workspace.project, '.claude', 'skills'), 'deploy', 'Deploy the app.', 'Run ./deploy.sh.');
    server = await startScriptedOpenAIServer();
    server.push({ toolCalls: [{ name: 'converse', arguments: { message: 'Read it.' } }] });
    tmux = new TmuxSession(`agentloop-skills-${process.pid}`, SOCKET);
    tmux.start(workspace.commandLine(['--provider', 'openai', '--base-url', server.url, '--model', 'test-model']));
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
