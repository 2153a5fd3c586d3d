import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';

let root: string;
let userFile: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-skills-config-'));
  userFile = join(root, 'user', 'config.toml');
  project = join(root, 'project');
  mkdirSync(join(root, 'user'));
  mkdirSync(join(project, '.agentloop'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the [skills] table', () => {
  it('merges both files: the project’s enabled wins, folders and disabled names add up', async () => {
    writeFileSync(userFile, '[skills]\nenabled = false\nfolders = ["team", "~/more"]\ndisabled = ["a"]\n');
    writeFileSync(
      join(project, '.agentloop', 'config.toml'),
      '[skills]\nenabled = true\nfolders = ["own"]\ndisabled = ["b"]\n',
    );
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.skills).toEqual({
      enabled: true,
      folders: [
        { path: join(root, 'user', 'team'), project: false },
        { path: join(homedir(), 'more'), project: false },
        { path: join(project, '.agentloop', 'own'), project: true },
      ],
      disabled: ['a', 'b'],
    });
  });

  it('is absent when no file has one', async () => {
    writeFileSync(userFile, 'verbose = true\n');
    expect((await loadConfig({ cwd: project, userFile })).skills).toBeUndefined();
  });

  it('refuses an unknown key with the file and the key', async () => {
    writeFileSync(userFile, '[skills]\nfolder = ["x"]\n');
    const error = await loadConfig({ cwd: project, userFile }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(userFile);
    expect((error as ConfigError).message).toContain('folder');
  });
});
