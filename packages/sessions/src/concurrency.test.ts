import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { messageText } from '@agentloop/spec';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StoreKind } from './test-support/store-kinds.js';
import { storeKindsWithPostgres, tempFolder } from './test-support/store-kinds.js';

// Several processes on one store at once, as the built package runs in apps: the file stores on one
// machine's disk, and PostgreSQL (a server of this file) as several app servers share it.
const STORE_KINDS = await storeKindsWithPostgres();

const CHILD = fileURLToPath(new URL('./test-support/writer-child.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** A writer process, with its output as lines and its end. */
interface Writer {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the first line that starts with one of `words`. */
  line(...words: string[]): Promise<string>;
  exited: Promise<number | null>;
}

function startWriter(kind: StoreKind, location: string, sessionId: string, turns: number, messages: number): Writer {
  const child = spawn(process.execPath, [CHILD, kind.name, location, sessionId, String(turns), String(messages)]);
  const seen: string[] = [];
  const waiting: { words: string[]; resolve: (line: string) => void }[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    seen.push(line);
    for (const wait of waiting.filter((item) => item.words.some((word) => line.startsWith(word)))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    line: (...words) =>
      new Promise((resolve, reject) => {
        const already = seen.find((line) => words.some((word) => line.startsWith(word)));
        if (already) return resolve(already);
        waiting.push({ words, resolve });
        void exited.then((code) =>
          reject(new Error(`the writer ended (${code}) before "${words}": ${seen.join(' | ')} ${stderr}`)),
        );
      }),
  };
}

describe.each(STORE_KINDS)('the $name store, written by several processes at once', (kind) => {
  let folder: ReturnType<typeof tempFolder>;
  let location: string;

  beforeAll(() => {
    if (!existsSync(BUILT))
      throw new Error(`The concurrency tests run the built package: run \`npm run build\` (missing ${BUILT}).`);
  });

  beforeEach(async () => {
    folder = tempFolder();
    location = kind.location(folder.path);
    await kind.prepare?.(location);
  });

  afterEach(() => folder.remove());

  it('loses nothing when two processes write two sessions at once', async () => {
    const turns = 150;
    const writers = ['a', 'b'].map((id) => startWriter(kind, location, id, turns, 3));
    await Promise.all(writers.map((writer) => writer.line('open')));
    for (const writer of writers) writer.child.stdin.write('go\n');
    expect(await Promise.all(writers.map((writer) => writer.line('done', 'error')))).toEqual(['done', 'done']);
    expect(await Promise.all(writers.map((writer) => writer.exited))).toEqual([0, 0]);

    const store = kind.open(location);
    try {
      for (const id of ['a', 'b']) {
        const stored = await store.load(id);
        expect(stored.info).toMatchObject({ turnCount: turns, messageCount: turns * 3 });
        const expected = Array.from({ length: turns }, (_, turn) =>
          [1, 2, 3].map((m) => `${id} ${turn + 1}.${m}`),
        ).flat();
        expect(stored.messages.map(messageText)).toEqual(expected);
      }
    } finally {
      await store.close();
    }
  });

  it('refuses a second process on a session another one writes, with session_locked, and keeps the first one’s history whole', async () => {
    const first = startWriter(kind, location, 'shared', 20, 2);
    await first.line('open');
    const second = startWriter(kind, location, 'shared', 20, 2);
    const refused = await second.line('error', 'open');
    expect(await second.exited).toBe(2);
    expect(refused).toMatch(
      new RegExp(
        `^error session_locked Session shared is open in process ${first.child.pid} \\(since [^)]+\\), which is still writing it\\.`,
      ),
    );

    first.child.stdin.write('go\n');
    expect(await first.line('done', 'error')).toBe('done');
    const store = kind.open(location);
    try {
      const stored = await store.load('shared');
      expect(stored.info.turnCount).toBe(20);
      expect(stored.messages.map(messageText)).toEqual(
        Array.from({ length: 20 }, (_, turn) => [1, 2].map((m) => `shared ${turn + 1}.${m}`)).flat(),
      );
    } finally {
      await store.close();
    }
  });
});
