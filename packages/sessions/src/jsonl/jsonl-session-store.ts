import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type {
  CreateSessionOptions,
  ForkSessionOptions,
  ListSessionsOptions,
  SessionInfo,
  SessionStore,
  SessionTurn,
  StoredSession,
} from '@agentloop/memory';
import { assertSessionId, SessionStoreError } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { emptyUsage } from '@agentloop/spec';
import { planFork } from '../fork-point.js';
import type { LeaseSettings } from '../lock/lease.js';
import { leasedWriter, leaseSettings, renewLease } from '../lock/lease.js';
import { retireWriter } from '../lock/session-writer.js';
import { OpenSessions } from '../open-sessions.js';
import { makeHandlePrivate, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../private-files.js';
import { loadRecordSchemas } from '../records/load-record-schemas.js';
import {
  checkTurn,
  newSessionId,
  newSessionState,
  sessionInfo,
  sessionNotFound,
  stateAfterCommit,
  storedSession,
} from '../session-state.js';
import { guarded } from '../store-failure.js';
import { acquireLockFile, assertLockFileHeld, releaseLockFile, renewLockFile } from './lock-file.js';
import { OpenSessionFile } from './open-session-file.js';
import { commitRecord, fixedInfo, parseSessionFile, recordLine, stateOfCommit } from './session-file.js';
import type { HeaderRecord, SessionFileRecord } from './session-file-records.js';
import { SESSION_FILE_VERSION } from './session-file-records.js';
import { summariseSessionFile } from './summarise-session-file.js';
import { syncDirectory } from './sync-directory.js';

/** Options of a JsonlSessionStore. */
export interface JsonlSessionStoreOptions {
  /** The folder of the session files (`<id>.jsonl`, and `<id>.lock` while a writer has it open); made when missing. */
  directory: string;
  /**
   * How long a session's write lock lasts without renewal, in milliseconds (at least 1,000). The holder
   * renews it while it lives, so a holder on another machine sharing the folder (a network file system)
   * that died frees the session when its lease ends; a holder on this machine that died frees it at once.
   * Default 30,000.
   */
  leaseMs?: number;
  /** The clock a lease is read from, in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
}

// How many session files a list reads at once.
const LIST_CONCURRENCY = 16;

/**
 * Sessions as JSON lines files, one per session, in one folder. A file is only appended to: each message
 * as the agent adds it, and a commit line at the end of each turn, after which the file is synced to disk
 * (fsync). Loading reads up to the last commit, so a turn cut short by a crash is not seen, and the next
 * writer cuts it off. Needs no native module; easy to read, copy and `grep`.
 */
export class JsonlSessionStore implements SessionStore {
  /** The folder of the session files. */
  readonly directory: string;
  readonly #open = new OpenSessions<OpenSessionFile>();
  readonly #lease: LeaseSettings;

  constructor(options: JsonlSessionStoreOptions) {
    if (typeof options?.directory !== 'string' || options.directory === '') {
      throw new SessionStoreError('JsonlSessionStore needs a `directory` to keep its session files in.', {
        code: 'invalid_session',
      });
    }
    this.directory = path.resolve(options.directory);
    this.#lease = leaseSettings('JsonlSessionStore', options);
  }

  async create(options: CreateSessionOptions = {}): Promise<SessionInfo> {
    return this.#guard(
      options.id,
      async () => {
        this.#open.assertNotClosed();
        const id = newSessionId(options.id);
        const header: HeaderRecord = {
          type: 'session',
          version: SESSION_FILE_VERSION,
          id,
          createdAt: new Date().toISOString(),
          ...(options.title === undefined ? {} : { title: options.title }),
          ...(options.model === undefined ? {} : { model: options.model }),
          ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
        };
        await this.#writeNewFile(id, [header]);
        return sessionInfo(fixedInfo(header), stateOfCommit(header, undefined));
      },
      false,
    );
  }

  async open(sessionId: string): Promise<StoredSession> {
    return this.#guard(sessionId, async () => {
      this.#open.assertNotClosed();
      assertSessionId(sessionId);
      // Opening again starts again from the last commit.
      if (this.#open.has(sessionId)) await this.release(sessionId);
      const file = this.#file(sessionId);
      if (!(await exists(file))) throw sessionNotFound(sessionId, this.directory);
      const { writer, now } = leasedWriter(this.#lease);
      const lock = this.#lockFile(sessionId);
      await acquireLockFile(lock, sessionId, writer, now).catch((error: unknown) => {
        retireWriter(writer);
        throw error;
      });
      let handle: FileHandle | undefined;
      try {
        handle = await open(file, 'a+');
        await makeHandlePrivate(handle);
        const bytes = await handle.readFile();
        const read = parseSessionFile(bytes, file);
        checkHeaderId(read.header, sessionId, file);
        // A turn a crashed writer left unfinished is cut off, so that the next turn starts on a line of its own.
        if (bytes.length > read.committedBytes) {
          await handle.truncate(read.committedBytes);
          await handle.sync();
        }
        this.#open.add(
          sessionId,
          new OpenSessionFile({
            writer,
            handle,
            state: read.state,
            messageCount: read.messages.length,
            committedBytes: read.committedBytes,
            stopRenewal: renewLease(this.#lease.leaseMs, () =>
              renewLockFile(lock, writer, this.#lease.now() + this.#lease.leaseMs),
            ),
          }),
        );
        return storedSession(sessionInfo(fixedInfo(read.header), read.state), read.state, read.messages);
      } catch (error) {
        await handle?.close().catch(() => {});
        await releaseLockFile(lock, writer).catch(() => {});
        retireWriter(writer);
        if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') throw sessionNotFound(sessionId, this.directory);
        throw error;
      }
    });
  }

  async append(sessionId: string, message: Message): Promise<void> {
    return this.#guard(sessionId, async () => {
      const session = this.#open.opened(sessionId, 'append to');
      return session.write(() => ({ type: 'message', turn: session.turn, message }), 1);
    });
  }

  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    return this.#guard(sessionId, async () => {
      const session = this.#open.opened(sessionId, 'replace the messages of');
      return session.write(() => ({ type: 'replace', turn: session.turn, messages: [...messages] }), messages);
    });
  }

  async commit(sessionId: string, turn: SessionTurn): Promise<void> {
    return this.#guard(sessionId, async () => {
      const session = this.#open.opened(sessionId, 'commit to');
      checkTurn(sessionId, turn);
      return session.commit(turn, () => assertLockFileHeld(this.#lockFile(sessionId), sessionId, session.writer));
    });
  }

  async release(sessionId: string): Promise<void> {
    return this.#guard(sessionId, async () => {
      const session = this.#open.take(sessionId);
      if (!session) return;
      await session.stopRenewal();
      await session.queue;
      try {
        await session.dropOpenTurn();
        await session.handle.close();
      } finally {
        await releaseLockFile(this.#lockFile(sessionId), session.writer);
        retireWriter(session.writer);
      }
    });
  }

  async load(sessionId: string): Promise<StoredSession> {
    return this.#guard(sessionId, async () => {
      this.#open.assertNotClosed();
      assertSessionId(sessionId);
      const file = this.#file(sessionId);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') throw sessionNotFound(sessionId, this.directory);
        throw error;
      }
      const read = parseSessionFile(bytes, file);
      checkHeaderId(read.header, sessionId, file);
      return storedSession(sessionInfo(fixedInfo(read.header), read.state), read.state, read.messages);
    });
  }

  async list(options: ListSessionsOptions = {}): Promise<SessionInfo[]> {
    return this.#guard(undefined, async () => {
      this.#open.assertNotClosed();
      let names: string[];
      try {
        names = await readdir(this.directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return [];
        throw error;
      }
      const files = names.filter((name) => name.endsWith('.jsonl')).map((name) => path.join(this.directory, name));
      const infos: SessionInfo[] = [];
      for (let start = 0; start < files.length; start += LIST_CONCURRENCY) {
        const batch = await Promise.all(
          files.slice(start, start + LIST_CONCURRENCY).map((file) => summariseSessionFile(file)),
        );
        for (const info of batch) {
          if (info && (options.workspace === undefined || info.workspace === options.workspace)) infos.push(info);
        }
      }
      infos.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || a.id.localeCompare(b.id));
      return options.limit === undefined ? infos : infos.slice(0, Math.max(0, options.limit));
    });
  }

  async delete(sessionId: string): Promise<void> {
    return this.#guard(sessionId, async () => {
      this.#open.assertNotClosed();
      assertSessionId(sessionId);
      await this.release(sessionId);
      const file = this.#file(sessionId);
      if (!(await exists(file))) throw sessionNotFound(sessionId, this.directory);
      // Taking the lock first: a session another writer has open is not deleted under it.
      const { writer, now } = leasedWriter(this.#lease);
      const lock = this.#lockFile(sessionId);
      try {
        await acquireLockFile(lock, sessionId, writer, now);
        await unlink(file).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') throw sessionNotFound(sessionId, this.directory);
          throw error;
        });
        await releaseLockFile(lock, writer);
      } finally {
        retireWriter(writer);
      }
    });
  }

  async fork(sessionId: string, options: ForkSessionOptions = {}): Promise<SessionInfo> {
    return this.#guard(options.id, async () => {
      this.#open.assertNotClosed();
      const { id, title, model, workspace, messages, forkedFrom } = planFork(
        sessionId,
        await this.load(sessionId),
        options,
      );
      const at = new Date();
      const header: HeaderRecord = {
        type: 'session',
        version: SESSION_FILE_VERSION,
        id,
        createdAt: at.toISOString(),
        ...(title === undefined ? {} : { title }),
        ...(model === undefined ? {} : { model }),
        ...(workspace === undefined ? {} : { workspace }),
        forkedFrom,
      };
      const records: SessionFileRecord[] = [header];
      let state = newSessionState({ title, model, at });
      if (messages.length > 0) {
        const turn: SessionTurn = { usage: emptyUsage() };
        state = stateAfterCommit(state, turn, messages.length, at);
        records.push(...messages.map((message): SessionFileRecord => ({ type: 'message', turn: 1, message })));
        records.push(commitRecord(1, turn, state));
      }
      await this.#writeNewFile(id, records);
      return sessionInfo(fixedInfo(header), state);
    });
  }

  async close(): Promise<void> {
    await this.#open.close((sessionId) => this.release(sessionId));
  }

  /**
   * Runs an operation; what the file system throws becomes a SessionStoreError naming the session's file.
   * One that reads saved records loads their schemas first (`reads`, the default); creating a session
   * reads none, so a process that only starts a session never loads zod.
   */
  #guard<T>(sessionId: string | undefined, operation: () => Promise<T>, reads = true): Promise<T> {
    const place = sessionId === undefined ? { file: this.directory } : { file: this.#file(sessionId), sessionId };
    return guarded(place, async () => {
      if (reads) await loadRecordSchemas();
      return operation();
    });
  }

  #file(sessionId: string): string {
    return path.join(this.directory, `${sessionId}.jsonl`);
  }

  #lockFile(sessionId: string): string {
    return path.join(this.directory, `${sessionId}.lock`);
  }

  /** Writes a new session file whole, synced, refusing an id that is taken. */
  async #writeNewFile(sessionId: string, records: readonly SessionFileRecord[]): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    let handle: FileHandle;
    try {
      handle = await open(this.#file(sessionId), 'wx', PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException)?.code !== 'EEXIST') throw error;
      throw new SessionStoreError(`A session ${sessionId} already exists in ${this.directory}; choose another id.`, {
        code: 'session_exists',
        sessionId,
      });
    }
    try {
      await handle.write(records.map(recordLine).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The file's name is in the folder's own data: without this, a power cut could lose the new file.
    await syncDirectory(this.directory);
  }
}

function checkHeaderId(header: HeaderRecord, sessionId: string, file: string): void {
  if (header.id === sessionId) return;
  throw new SessionStoreError(
    `${file} holds session ${header.id}, not ${sessionId}: a file was renamed. Rename it back to ${header.id}.jsonl.`,
    { code: 'invalid_session', sessionId },
  );
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return false;
    throw error;
  }
}
