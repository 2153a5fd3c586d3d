import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import type { StoredSession } from '@agentloop/memory';
import { findHistoryProblem, messageText, toolCallsOf } from '@agentloop/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSessionFile } from './jsonl/session-file.js';
import { loadRecordSchemas } from './records/load-record-schemas.js';
import { lookupTool } from './test-support/scripted-turns.js';
import type { StoreKind } from './test-support/store-kinds.js';
import { storeKindsWithPostgres, tempFolder } from './test-support/store-kinds.js';

// Agents killed with SIGKILL at random points of their runs, over and over, on one session: after each kill
// the store must hold every turn that was committed, whole, and nothing of a turn that was not, in a history
// a provider accepts; and the next process must resume it. The children run the built packages (the
// test's one use of real time: a process cannot be killed at a random point on a fake clock).

const CHILD = fileURLToPath(new URL('./test-support/crash-child.mjs', import.meta.url));
const BUILT = ['../dist/index.js', '../../core/dist/index.js'].map((path) =>
  fileURLToPath(new URL(path, import.meta.url)),
);
/** Kills per store: more for PostgreSQL, where each kill also drops a client mid-transaction on the server. */
const killsOf = (kind: StoreKind) => (kind.name === 'postgres' ? 50 : 25);
/** The longest wait between a child's `ready` and its kill, in milliseconds: several turns. */
const MAX_DELAY_MS = 40;
const SESSION = 'crash';
// The file stores, and PostgreSQL (a server of this file, each child a client killed mid-transaction).
const STORE_KINDS = await storeKindsWithPostgres();

/** A small seeded generator, so that a failing run can be repeated with its seed. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface KillReport {
  /** The child printed `ready` (it had opened the session) before it was killed. */
  ready: boolean;
  /** The last turn it said was committed, or the count it resumed with. */
  committed: number;
  /** It was killed between a run's start and its commit. */
  midTurn: boolean;
}

/** Starts a child on the session and kills it `delayMs` after it is ready (or after it starts, with `early`). */
async function runAndKill(kind: StoreKind, location: string, delayMs: number, early: boolean): Promise<KillReport> {
  const child = spawn(process.execPath, [CHILD, kind.name, location, SESSION], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const report: KillReport = { ready: false, committed: 0, midTurn: false };
  let readyNow: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    readyNow = resolve;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const [word, count] = line.split(' ');
    if (word === 'ready') {
      report.ready = true;
      report.committed = Number(count);
      readyNow();
    } else if (word === 'start') report.midTurn = true;
    else if (word === 'committed') {
      report.committed = Number(count);
      report.midTurn = false;
    }
  });
  if (!early) await Promise.race([ready, exited]);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  child.kill('SIGKILL');
  const { code, signal } = await exited;
  // A child that ended by itself failed: say why.
  if (signal !== 'SIGKILL') throw new Error(`the child ended with ${code} before it was killed: ${stderr}`);
  return report;
}

/** Checks the session as a new process finds it; returns how many turns it holds. */
function checkWhole(stored: StoredSession): void {
  const turns = stored.info.turnCount;
  expect(stored.messages).toHaveLength(5 * turns);
  expect(findHistoryProblem(stored.messages)).toBeUndefined();
  for (let turn = 1; turn <= turns; turn++) {
    const [input, call, result, exit, exitResult] = stored.messages.slice(5 * (turn - 1), 5 * turn);
    expect(messageText(input!)).toBe(`task ${turn}`);
    expect(toolCallsOf(call!)).toMatchObject([{ toolCallId: `lookup-${turn}`, arguments: { key: `k${turn}` } }]);
    expect(result).toMatchObject({
      role: 'tool',
      content: [{ toolCallId: `lookup-${turn}`, content: `value of k${turn}` }],
    });
    expect(messageText(exit!)).toBe(`Turn ${turn} is done.`);
    expect(toolCallsOf(exit!)).toMatchObject([
      { toolCallId: `exit-${turn}`, toolName: turn % 3 === 0 ? 'ask_question' : 'task_completion' },
    ]);
    expect(exitResult).toMatchObject({ role: 'tool', content: [{ toolCallId: `exit-${turn}` }] });
  }
  expect(stored.pendingQuestion).toEqual(
    turns > 0 && turns % 3 === 0 ? { question: `Go on after ${turns}?`, suggestions: ['yes', 'no'] } : undefined,
  );
}

describe('crash safety', () => {
  const figures: string[] = [];

  beforeAll(async () => {
    // The test reads session files with the store's parser, which checks records with their schemas.
    await loadRecordSchemas();
    const missing = BUILT.filter((file) => !existsSync(file));
    if (missing.length > 0)
      throw new Error(`The crash test runs the built packages: run \`npm run build\` (missing ${missing.join(', ')}).`);
  });

  afterAll(() => {
    // The figures the issue asks for, in the test's output.
    for (const line of figures) console.log(line);
  });

  describe.each(STORE_KINDS)('of the $name store', (kind) => {
    const kills = killsOf(kind);
    it(`keeps every committed turn whole across ${kills} kills at random points, and the next run works`, async () => {
      const folder = tempFolder();
      const location = kind.location(folder.path);
      await kind.prepare?.(location);
      const seed = Date.now() % 1_000_000;
      const random = randomFrom(seed);
      let reported = 0;
      let midTurn = 0;
      let early = 0;
      let unfinishedOnDisk = 0;
      let lost = 0;
      try {
        for (let kill = 0; kill < kills; kill++) {
          // One kill in six lands while the child starts and opens the session; the others in its runs.
          const killEarly = random() < 1 / 6;
          const report = await runAndKill(kind, location, random() * (killEarly ? 150 : MAX_DELAY_MS), killEarly);
          if (report.midTurn) midTurn++;
          if (!report.ready) early++;
          reported = Math.max(reported, report.committed);

          if (kind.name === 'jsonl' && existsSync(join(location, `${SESSION}.jsonl`))) {
            const bytes = readFileSync(join(location, `${SESSION}.jsonl`));
            if (bytes.length > parseSessionFile(bytes, 'session file').committedBytes) unfinishedOnDisk++;
          }
          const store = kind.open(location);
          try {
            const stored = await store.load(SESSION).catch((error: unknown) => {
              // Killed before the session was ever created: nothing to check yet.
              if ((error as { code?: string }).code === 'session_not_found' && reported === 0) return undefined;
              throw error;
            });
            if (!stored) continue;
            lost += Math.max(0, reported - stored.info.turnCount);
            expect(
              stored.info.turnCount,
              `seed ${seed}, kill ${kill + 1}: a committed turn is missing`,
            ).toBeGreaterThanOrEqual(reported);
            checkWhole(stored);
            reported = stored.info.turnCount;
          } finally {
            await store.close();
          }
        }

        // The next process resumes the session and runs on.
        const store = kind.open(location);
        try {
          const next = reported + 1;
          const provider = new ScriptedProvider([
            { toolCalls: [{ name: 'lookup', arguments: { key: `k${next}` }, id: `lookup-${next}` }] },
            {
              text: `Turn ${next} is done.`,
              toolCalls: [
                next % 3 === 0
                  ? {
                      name: 'ask_question',
                      arguments: { question: `Go on after ${next}?`, suggestions: ['yes', 'no'] },
                      id: `exit-${next}`,
                    }
                  : { name: 'task_completion', arguments: { result: 'ok' }, id: `exit-${next}` },
              ],
            },
          ]);
          const agent = new DefaultAgent(provider, { tools: [lookupTool], session: { store, id: SESSION } });
          const result = await agent.run(`task ${next}`);
          expect(result.exit).toBe(next % 3 === 0 ? 'ask_question' : 'task_completion');
          expect(provider.request(0).messages).toHaveLength(5 * reported + 1);
          await agent.closeSession();
          const stored = await store.load(SESSION);
          expect(stored.info.turnCount).toBe(next);
          checkWhole(stored);
        } finally {
          await store.close();
        }
        expect(lost).toBe(0);
        // The kills must have hit runs, not only the start-up, for the test to say anything.
        expect(midTurn).toBeGreaterThan(kills / 3);
        figures.push(
          `crash test, ${kind.name} store (seed ${seed}): ${kills} kills (${midTurn} in the middle of a turn, ` +
            `${early} while starting), ${reported} turns committed, ${lost} lost, 0 half written` +
            (kind.name === 'jsonl'
              ? `; ${unfinishedOnDisk} kills left an unfinished turn on disk, none of it loaded`
              : ''),
        );
      } finally {
        folder.remove();
      }
    }, 120_000);
  });
});
