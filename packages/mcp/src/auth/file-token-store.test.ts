import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileTokenStore } from './file-token-store.js';

async function tokenFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'agentloop-tokens-')), 'tokens.json');
}

describe('FileTokenStore', () => {
  it("keeps every server's entry when stores over one file write at once", async () => {
    const file = await tokenFile();
    const stores = [new FileTokenStore(file), new FileTokenStore(file)];
    const resources = Array.from({ length: 12 }, (_, index) => `https://mcp${index}.example.com/mcp`);
    await Promise.all(
      resources.map((resource, index) =>
        stores[index % 2]?.set(resource, { tokens: { access_token: `at-${index}`, token_type: 'Bearer' } }),
      ),
    );
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(written.servers).sort()).toEqual([...resources].sort());
    expect(await readdir(join(file, '..'))).toEqual(['tokens.json']);
  });

  it('takes over the lock of a process that ended without letting it go', async () => {
    const file = await tokenFile();
    const store = new FileTokenStore(file);
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    const lock = `${file}.lock`;
    await writeFile(
      lock,
      JSON.stringify({ pid: ended, host: hostname(), token: 'gone', since: '2026-01-01T00:00:00Z' }),
    );

    await store.set('https://mcp.example.com/mcp', { tokens: { access_token: 'at-1', token_type: 'Bearer' } });
    expect((await store.get('https://mcp.example.com/mcp'))?.tokens?.access_token).toBe('at-1');
    expect(existsSync(lock)).toBe(false);
  });

  it('runs the work given to withLock one at a time, across stores over one file', async () => {
    const file = await tokenFile();
    const stores = [new FileTokenStore(file), new FileTokenStore(file)];
    const steps: string[] = [];
    const work = async () => {
      steps.push('start');
      for (let turn = 0; turn < 3; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
      steps.push('end');
    };
    await Promise.all([0, 1, 2, 3].map((index) => stores[index % 2]?.withLock('https://mcp.example.com/mcp', work)));
    expect(steps).toEqual(['start', 'end', 'start', 'end', 'start', 'end', 'start', 'end']);
    expect(await readdir(join(file, '..'))).toEqual([]);
  });
});
