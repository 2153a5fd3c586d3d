// End-to-end tests of what a new user types wrong: the built command, spawned with no provider to reach,
// must stop at once with status 2 and one line that says what was wrong. They import nothing from the
// sources, so they test the build.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENTLOOP_BIN, assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';

let workspace: CliWorkspace | undefined;

function agentloop(args: string[]) {
  workspace ??= new CliWorkspace();
  const run = spawnSync(process.execPath, [AGENTLOOP_BIN, ...args], {
    cwd: workspace.project,
    env: workspace.environment(),
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('usage errors of the agentloop command', () => {
  beforeAll(() => assertBuilt());

  afterEach(() => {
    workspace?.remove();
    workspace = undefined;
  });

  it('refuses a --base-url without its scheme at once, saying it must be an http(s) URL', () => {
    for (const args of [
      ['run', '--base-url', 'localhost:11434', '--model', 'm', 'hi'],
      ['--base-url', 'localhost:11434', 'hi'],
    ]) {
      const run = agentloop(args);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        '✗ The base URL localhost:11434 is not an http:// or https:// URL. Give it whole, e.g. http://localhost:11434/v1.\n',
      );
      expect(run.stdout).toBe('');
    }
  });

  it('names an unterminated string in a configuration file by its file, line and column', () => {
    workspace = new CliWorkspace();
    const file = join(workspace.project, '.agentloop', 'config.toml');
    mkdirSync(join(workspace.project, '.agentloop'));
    writeFileSync(file, 'provider = "openai"\nmodel = "gpt-5\n');
    const run = agentloop(['run', 'hi']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `✗ Invalid configuration in ${file}: is not valid TOML at line 2, column 9: unterminated string: the " here has no closing " on its line\n`,
    );
  });

  it('suggests the subcommand a mistyped first word is close to', () => {
    const run = agentloop(['rnu', 'hello']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "error: unknown command 'rnu'\n(Did you mean run?)\n(agentloop --help shows the options)\n",
    );
  });
});
