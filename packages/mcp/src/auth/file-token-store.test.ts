import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectMcpServers } from '../mcp-servers.js';
import { followAuthorization } from '../test-support/follow-authorization.js';
import { type OAuthFixtureServer, startOAuthFixtureServer } from '../test-support/oauth-fixture-server.mjs';
import { LOCK_LEASE_MS, LOCK_WAIT_MS } from './file-lock.js';
import { FileTokenStore } from './file-token-store.js';
import { loginMcpServer } from './login-mcp-server.js';

// Several agentloop processes share one token file (two terminals, `agentloop serve` and a `run`): the
// children here are such processes, running the built package as an app does.
const CHILD = fileURLToPath(new URL('../test-support/refresh-child.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

const fixtures: OAuthFixtureServer[] = [];

afterEach(async () => {
  for (const server of fixtures.splice(0)) await server.close();
});

async function tokenFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'agentloop-tokens-')), 'tokens.json');
}

/** Waits, without a clock, until `ready()` holds: `check` is called at each event that may change it. */
function waitFor(ready: () => boolean): { promise: Promise<void>; check(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  const check = () => {
    if (ready()) resolve();
  };
  return { promise, check };
}

/** A child process of refresh-child.mjs, with the lines it printed and its last line. */
function startChild(url: string, file: string, onLine: () => void) {
  const child = spawn(process.execPath, [CHILD, url, file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    onLine();
  });
  const result = new Promise<string>((resolve) =>
    child.on('exit', (code) => resolve(lines.at(-1) ?? `exit ${code}: ${stderr}`)),
  );
  return { lines, result };
}

describe('FileTokenStore shared by processes', () => {
  beforeAll(() => {
    if (!existsSync(BUILT))
      throw new Error(`These tests run the built package: run \`npm run build\` (missing ${BUILT}).`);
  });

  it("refreshes one server's expired token once when two processes need it at once, and both go on", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const children: ReturnType<typeof startChild>[] = [];
    const refreshes = () => server.seen.tokenRequests.filter((request) => request.grant === 'refresh_token').length;
    const locks = () => children.flatMap((child) => child.lines).filter((line) => line === 'lock').length;
    // The first refresh is held at the authorization server until the other process waits for the lock
    // (or, where nothing serializes refreshes, has sent its own refresh with the same refresh token).
    const bothInFlight = waitFor(() => refreshes() === 2 || (refreshes() === 1 && locks() === 2));
    const server = await startOAuthFixtureServer({
      beforeRefresh: () => {
        bothInFlight.check();
        return held;
      },
    });
    fixtures.push(server);
    const file = await tokenFile();
    const store = new FileTokenStore(file);
    const login = await loginMcpServer({
      name: 'remote',
      config: { url: server.url },
      store,
      openAuthorizationUrl: async (url) => {
        await followAuthorization(url);
      },
    });
    expect(login.outcome).toBe('logged-in');
    const loggedIn = (await store.get(server.url))?.tokens;
    server.expireTokens();

    children.push(startChild(server.url, file, bothInFlight.check), startChild(server.url, file, bothInFlight.check));
    await bothInFlight.promise;
    release();
    const results = await Promise.all(children.map((child) => child.result));

    const client = (await store.get(server.url))?.clientInformation?.client_id;
    expect(results).toEqual([0, 1].map(() => expect.stringMatching(new RegExp(`^done .*${client}`))));
    expect(refreshes()).toBe(1);
    const stored = (await store.get(server.url))?.tokens;
    expect(stored?.refresh_token).toMatch(/^rt-/);
    expect(stored?.refresh_token).not.toBe(loggedIn?.refresh_token);
    expect(stored?.access_token).not.toBe(loggedIn?.access_token);
    // The refresh token stored is the live one: the next refresh with it goes through.
    server.expireTokens();
    const mcp = await connectMcpServers({ remote: { url: server.url } }, { oauth: { store } });
    try {
      expect(mcp.status()[0]?.state).toBe('ready');
    } finally {
      await mcp.close();
    }
    expect(refreshes()).toBe(2);
    expect(await readdir(join(file, '..'))).toEqual(['tokens.json']);
  });
});

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

  it('takes over a lock that was not renewed for its lease, as one left by a crash on another machine', async () => {
    const file = await tokenFile();
    const store = new FileTokenStore(file);
    const lock = `${file}.lock`;
    await writeFile(lock, JSON.stringify({ pid: 1, host: 'elsewhere', token: 'gone', since: '2026-01-01T00:00:00Z' }));
    const renewed = new Date(Date.now() - LOCK_LEASE_MS - 1_000);
    await utimes(lock, renewed, renewed);

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

  it("tells a process that waited for another's refresh which server it refreshes, and to try again", async () => {
    const file = await tokenFile();
    const store = new FileTokenStore(file);
    const resource = 'https://mcp.example.com/mcp';
    await store.set(resource, { tokens: { access_token: 'at-1', token_type: 'Bearer' } });
    const lock = `${file}.${createHash('sha256').update(resource).digest('hex').slice(0, 16)}.lock`;
    const holder = { pid: process.pid, host: hostname(), token: 'other', since: '2026-01-01T00:00:00Z' };
    await writeFile(lock, JSON.stringify(holder));
    // Renewed, as far as the hurried clock below can tell, for the whole wait.
    const renewed = new Date(Date.now() + 100 * LOCK_WAIT_MS);
    await utimes(lock, renewed, renewed);
    let now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => {
      now += LOCK_WAIT_MS / 2;
      return now;
    });

    const failure = await store.withLock(resource, async () => 'refreshed').catch((error: Error) => error);
    clock.mockRestore();

    expect((failure as Error).message).toBe(
      `Waited ${LOCK_WAIT_MS / 1000} s: another agentloop process (pid ${process.pid}) is refreshing the token for ${resource}; try again.`,
    );
  });
});
