import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleApp } from './test-support/bundle-app.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const built = ['core', 'sessions'].every((name) => existsSync(path.join(root, 'packages', name, 'dist', 'bundle')));
// better-sqlite3 as the sessions package finds it, with what it requires when it loads.
const fromSessions = createRequire(path.join(root, 'packages', 'sessions', 'package.json'));

/** Copies what a package needs at run time (its manifest and `parts`) into `folder`'s node_modules. */
async function ship(folder: string, name: string, parts: readonly string[], from = fromSessions): Promise<string> {
  const source = path.dirname(from.resolve(`${name}/package.json`));
  const target = path.join(folder, 'node_modules', name);
  await mkdir(target, { recursive: true });
  for (const part of ['package.json', ...parts])
    await cp(path.join(source, part), path.join(target, part), { recursive: true });
  return source;
}

describe('an app with SQLite sessions, bundled without better-sqlite3', () => {
  let folder: string;

  beforeAll(async () => {
    if (!built) throw new Error('packages/{core,sessions}/dist/bundle is missing: run `npm run build` first.');
    folder = await mkdtemp(path.join(tmpdir(), 'agentloop-sqlite-bundle-'));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('finds the native module in the node_modules shipped beside the bundle', async () => {
    const bundle = path.join(folder, 'app.mjs');
    await bundleApp(fileURLToPath(new URL('./sqlite-app.ts', import.meta.url)), bundle);
    // Nothing to mark external: the store requires better-sqlite3 through createRequire, left alone.
    expect(await readFile(bundle, 'utf8')).not.toContain('DEFAULT_ADDON'); // better-sqlite3's lib/database.js
    const sqlite = await ship(folder, 'better-sqlite3', ['lib', 'build/Release/better_sqlite3.node']);
    const fromSqlite = createRequire(path.join(sqlite, 'package.json'));
    const bindings = await ship(folder, 'bindings', ['bindings.js'], fromSqlite);
    await ship(folder, 'file-uri-to-path', ['index.js'], createRequire(path.join(bindings, 'package.json')));

    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [bundle, path.join(folder, 'sessions.sqlite')],
        { cwd: folder, env: { PATH: process.env.PATH } },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    expect(JSON.parse(output)).toEqual({ exit: 'task_completion', resumedMessages: ['user', 'assistant', 'tool'] });
  });
});
