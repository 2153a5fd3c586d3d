import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_TEMPLATE } from '../config/index.js';
import { MemoryOutput } from '../test-support/index.js';
import { configInit } from './config-command.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-init-'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('agentloop config init', () => {
  it('writes the commented template to the user file, readable by the user only', () => {
    const userConfigFile = join(root, 'config', 'agentloop', 'config.toml');
    const output = new MemoryOutput();
    expect(configInit({ cwd: root, userConfigFile }, output, new MemoryOutput())).toBe(0);
    expect(readFileSync(userConfigFile, 'utf8')).toBe(CONFIG_TEMPLATE);
    expect(statSync(userConfigFile).mode & 0o777).toBe(0o600);
    expect(output.text).toMatch(new RegExp(`^Wrote ${userConfigFile}\\n`));
  });

  it('writes the project file with project', () => {
    expect(configInit({ cwd: root, project: true }, new MemoryOutput(), new MemoryOutput())).toBe(0);
    expect(existsSync(join(root, '.agentloop', 'config.toml'))).toBe(true);
  });

  it('refuses to replace a file without force', () => {
    const errors = new MemoryOutput();
    configInit({ cwd: root, project: true }, new MemoryOutput(), errors);
    expect(configInit({ cwd: root, project: true }, new MemoryOutput(), errors)).toBe(2);
    expect(errors.text).toBe(`${join(root, '.agentloop', 'config.toml')} already exists; add --force to replace it.\n`);
    expect(configInit({ cwd: root, project: true, force: true }, new MemoryOutput(), errors)).toBe(0);
  });

  it('makes a replaced file readable by the user only', () => {
    const userConfigFile = join(root, 'config.toml');
    writeFileSync(userConfigFile, 'old');
    chmodSync(userConfigFile, 0o644);
    expect(configInit({ cwd: root, userConfigFile, force: true }, new MemoryOutput(), new MemoryOutput())).toBe(0);
    expect(statSync(userConfigFile).mode & 0o777).toBe(0o600);
  });

  it('reports a file it cannot write in one line, with exit status 1', () => {
    writeFileSync(join(root, 'blocker'), '');
    const userConfigFile = join(root, 'blocker', 'agentloop', 'config.toml');
    const errors = new MemoryOutput();
    expect(configInit({ cwd: root, userConfigFile }, new MemoryOutput(), errors)).toBe(1);
    expect(errors.text).toMatch(new RegExp(`^✗ Cannot write ${userConfigFile}: ENOTDIR[^\n]*\n$`));
  });
});
