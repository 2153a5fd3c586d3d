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

describe('sessionsConfigOf', () => {
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
