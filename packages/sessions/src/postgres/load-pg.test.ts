import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const BUILT = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

describe('loading pg', () => {
  afterEach(() => {
    vi.doUnmock('pg');
    vi.resetModules();
  });

  it('says to install pg, with store_unavailable, when it cannot be loaded', async () => {
    vi.doMock('pg', () => {
      throw new Error("Cannot find package 'pg' imported from the store");
    });
    const { loadPg } = await import('./load-pg.js');

    const error = await loadPg().catch((thrown: unknown) => thrown);

    expect(error).toMatchObject({ code: 'store_unavailable' });
    expect((error as Error).message).toMatch(
      /^The PostgreSQL session store needs the pg package \(node-postgres\), which could not be loaded \(.+\)\. Install it with `npm install pg`, or keep sessions in SQLite or JSON lines files\.$/,
    );
  });

  it.skipIf(!existsSync(BUILT))(
    'is left to the PostgreSQL store: the package and its other stores never load it',
    () => {
      const script = `
      const { JsonlSessionStore, PostgresSessionStore } = await import(${JSON.stringify(BUILT)});
      const { mkdtempSync, rmSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const folder = mkdtempSync(tmpdir() + '/agentloop-pg-');
      const store = new JsonlSessionStore({ directory: folder });
      await store.create({ id: 's1' });
      await store.close();
      rmSync(folder, { recursive: true });
      new PostgresSessionStore({ connectionString: 'postgresql://nobody@127.0.0.1:1/none' });
      const { createRequire } = await import('node:module');
      const cache = createRequire(import.meta.url).cache;
      console.log(Object.keys(cache).filter((file) => file.includes('/node_modules/pg/')).length);
    `;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });

      expect(child.stderr).toBe('');
      expect(child.stdout.trim()).toBe('0');
    },
  );
});
