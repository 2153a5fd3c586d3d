import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAcpSessionStore } from './open-acp-session-store.js';

let root: string;
let userConfigFile: string;
let logged: string[];
const log = (message: string) => void logged.push(message);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-acp-store-'));
  userConfigFile = join(root, 'config.toml');
  mkdirSync(join(root, 'project', '.agentloop'), { recursive: true });
  logged = [];
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('openAcpSessionStore', () => {
  it('opens the store the [sessions] table names, which keeps what an agent saves in it', async () => {
    const directory = join(root, 'sessions');
    writeFileSync(userConfigFile, `[sessions]\nstore = "jsonl"\ndirectory = ${JSON.stringify(directory)}\n`);
    const store = await openAcpSessionStore({ cwd: join(root, 'project'), userConfigFile, log });
    expect(store).toBeDefined();
    await store!.create({ id: 'sess_1', workspace: root });
    await store!.close();
    expect(logged).toEqual([]);
    const reopened = await openAcpSessionStore({ cwd: join(root, 'project'), userConfigFile, log });
    expect((await reopened!.list()).map((session) => session.id)).toEqual(['sess_1']);
    await reopened!.close();
  });

  it('has no store when the configuration says store = "off"', async () => {
    writeFileSync(join(root, 'project', '.agentloop', 'config.toml'), '[sessions]\nstore = "off"\n');
    expect(await openAcpSessionStore({ cwd: join(root, 'project'), userConfigFile, log })).toBeUndefined();
    expect(logged).toEqual([]);
  });

  it('serves without sessions, and says why, when the configuration cannot be read', async () => {
    writeFileSync(userConfigFile, '[sessions]\nstore = "paper"\n');
    expect(await openAcpSessionStore({ cwd: join(root, 'project'), userConfigFile, log })).toBeUndefined();
    expect(logged).toEqual([expect.stringMatching(/^sessions are not saved: .*sessions\.store.*"paper"/)]);
  });

  it('serves without sessions, and says why, when the store cannot be opened', async () => {
    const notADirectory = join(root, 'file');
    writeFileSync(notADirectory, '');
    writeFileSync(
      userConfigFile,
      `[sessions]\nstore = "sqlite"\ndirectory = ${JSON.stringify(join(notADirectory, 'x'))}\n`,
    );
    expect(await openAcpSessionStore({ cwd: join(root, 'project'), userConfigFile, log })).toBeUndefined();
    expect(logged).toEqual([expect.stringContaining('sessions are not saved: the sqlite store at ')]);
  });

  it('serves without sessions, and names the variable to set, when store = "postgres" has no connection string', async () => {
    writeFileSync(
      userConfigFile,
      '[sessions]\nstore = "postgres"\nurl_env_var = "AGENTLOOP_TEST_UNSET_DATABASE_URL"\n',
    );
    expect(await openAcpSessionStore({ cwd: join(root, 'project'), userConfigFile, log })).toBeUndefined();
    expect(logged).toEqual([
      expect.stringMatching(
        /^sessions are not saved: \[sessions\] store = "postgres" needs a connection string in the environment variable AGENTLOOP_TEST_UNSET_DATABASE_URL, which is not set\./,
      ),
    ]);
  });
});
