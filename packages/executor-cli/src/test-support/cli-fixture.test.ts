import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliWorkspace } from './cli-fixture.js';

describe('CliWorkspace', () => {
  let workspace: CliWorkspace | undefined;
  afterEach(() => workspace?.remove());

  it('adds to the user configuration after what it held, the sandbox setting included', () => {
    workspace = new CliWorkspace();
    expect(workspace.userConfigFile).toBe(join(workspace.configHome, 'agentloop', 'config.toml'));
    const before = existsSync(workspace.userConfigFile) ? readFileSync(workspace.userConfigFile, 'utf8') : '';
    workspace.appendUserConfig('\n[mcp_servers.one]\ncommand = "one"\n');
    workspace.appendUserConfig('\n[mcp_servers.two]\ncommand = "two"\n');
    expect(readFileSync(workspace.userConfigFile, 'utf8')).toBe(
      `${before}\n[mcp_servers.one]\ncommand = "one"\n\n[mcp_servers.two]\ncommand = "two"\n`,
    );
  });
});
