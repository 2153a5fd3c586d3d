import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSqlite, sqliteNativeBinding } from './load-sqlite.js';

describe('sqliteNativeBinding', () => {
  it('names the native module better-sqlite3 built, which opens a database without the `bindings` search', () => {
    const root = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3')), '..');
    const binding = sqliteNativeBinding();

    expect(binding).toBe(join(root, 'build', 'Release', 'better_sqlite3.node'));
    expect(existsSync(binding as string)).toBe(true);
    const Database = loadSqlite();
    const db = new Database(':memory:', { nativeBinding: binding as string });
    try {
      expect(db.prepare('SELECT 1 + 1 AS sum').get()).toEqual({ sum: 2 });
    } finally {
      db.close();
    }
  });
});
