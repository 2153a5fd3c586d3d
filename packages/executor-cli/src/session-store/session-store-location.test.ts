import { homedir } from 'node:os';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../config/index.js';
import { sessionStoreLocation, sessionsConfigOf } from './session-store-location.js';

const dataSessions = join(envPaths('agentloop', { suffix: '' }).data, 'sessions');

describe('sessionStoreLocation', () => {
  it('is a SQLite database in the user data directory by default', () => {
    expect(sessionStoreLocation(undefined)).toEqual({
      kind: 'sqlite',
      path: join(dataSessions, 'sessions.sqlite'),
      defaultFolder: true,
    });
  });

  it('is a folder of JSON lines files with store = "jsonl"', () => {
    expect(sessionStoreLocation({ store: 'jsonl' })).toEqual({
      kind: 'jsonl',
      path: dataSessions,
      defaultFolder: true,
    });
  });

  it('is nothing with store = "off"', () => {
    expect(sessionStoreLocation({ store: 'off', directory: '/x' })).toBeUndefined();
  });

  it('takes a directory, with ~ for the home directory', () => {
    expect(sessionStoreLocation({ directory: '~/kept' })).toEqual({
      kind: 'sqlite',
      path: join(homedir(), 'kept', 'sessions.sqlite'),
      defaultFolder: false,
    });
  });
});

describe('sessionStoreLocation with store = "postgres"', () => {
  it('is the database DATABASE_URL names, by default', () => {
    expect(sessionStoreLocation({ store: 'postgres' }, { DATABASE_URL: 'postgres://u:p@db:5432/app' })).toEqual({
      kind: 'postgres',
      path: 'the PostgreSQL database of $DATABASE_URL',
      defaultFolder: false,
      connectionString: 'postgres://u:p@db:5432/app',
    });
  });

  it('reads the variable url_env_var names', () => {
    const location = sessionStoreLocation(
      { store: 'postgres', url_env_var: 'AGENT_DB' },
      { DATABASE_URL: 'postgres://app', AGENT_DB: 'postgres://agents' },
    );
    expect(location).toMatchObject({
      connectionString: 'postgres://agents',
      path: 'the PostgreSQL database of $AGENT_DB',
    });
  });

  it.each([{}, { AGENT_DB: '  ' }])('says which variable to set when it is unset or empty (%j)', (environment) => {
    expect(() => sessionStoreLocation({ store: 'postgres', url_env_var: 'AGENT_DB' }, environment)).toThrow(
      /^\[sessions\] store = "postgres" needs a connection string in the environment variable AGENT_DB, which is not set\. Set it \(AGENT_DB=postgres:/,
    );
  });
});

describe('sessionsConfigOf', () => {
  it("keeps the user file's url_env_var", () => {
    const config = {
      sessions: { store: 'postgres' },
      layers: [{ file: '/home/u/.config/agentloop/config.toml', settings: { sessions: { url_env_var: 'AGENT_DB' } } }],
    } as unknown as LoadedConfig;

    expect(sessionsConfigOf(config)).toEqual({ store: 'postgres', url_env_var: 'AGENT_DB' });
  });

  it("keeps the user file's directory when the project sets the store", () => {
    const config = {
      sessions: { store: 'jsonl' },
      layers: [
        { file: '/home/u/.config/agentloop/config.toml', settings: { sessions: { directory: '~/kept' } } },
        { file: '/work/app/.agentloop/config.toml', settings: { sessions: { store: 'jsonl' } } },
      ],
    } as unknown as LoadedConfig;

    expect(sessionsConfigOf(config)).toEqual({ store: 'jsonl', directory: '~/kept' });
  });
});
