import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { assertBuilt, CliWorkspace, REPOSITORY_ROOT } from './cli-fixture.js';

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

describe('assertBuilt', () => {
  it("tells to build in this checkout's root, wherever it is, not in a fixed folder", () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');
    expect(REPOSITORY_ROOT).toBe(root);
    expect(existsSync(join(REPOSITORY_ROOT, 'turbo.json'))).toBe(true);
    const missing = join(REPOSITORY_ROOT, 'no-such-build', 'main.js');
    expect(() => assertBuilt(missing)).toThrow(`${missing} is missing: build first (cd '${root}' && npm run build).`);
  });
});
