import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { SessionInfo } from '@agentloop/memory';
import { sessionInfo } from '../session-state.js';
import { fixedInfo, parseSessionFile, readSummary, stateOfCommit } from './session-file.js';

// How much of a file's start and end a list reads: enough for the header and the last commit line.
const TAIL_BYTES = 64 * 1024;

/** A session file's info from its first line and its last commit; undefined for a file that is no session. */
export async function summariseSessionFile(file: string): Promise<SessionInfo | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, TAIL_BYTES));
    await handle.read(head, 0, head.length, 0);
    const tailStart = Math.max(0, size - TAIL_BYTES);
    const tail = tailStart === 0 ? head : Buffer.alloc(size - tailStart);
    if (tailStart > 0) await handle.read(tail, 0, tail.length, tailStart);
    const summary = readSummary(head, tail, tailStart === 0, file);
    if (summary) return sessionInfo(fixedInfo(summary.header), stateOfCommit(summary.header, summary.lastCommit));
    // No whole commit line near the end (a long unfinished turn, a huge message): read it all.
    const read = parseSessionFile(await handle.readFile({ encoding: null }), file);
    return sessionInfo(fixedInfo(read.header), read.state);
  } catch {
    // A damaged or foreign file is no reason to fail a list: `load` says what is wrong with it.
    return undefined;
  } finally {
    await handle?.close();
  }
}
