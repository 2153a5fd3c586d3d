import { createHash, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { withFileLock } from './file-lock.js';
import type { McpStoredCredentials, McpTokenStore } from './mcp-token-store.js';

/** The version of the file's shape; a file of another version is refused, not guessed at. */
const FILE_VERSION = 1;

interface TokenFile {
  version: typeof FILE_VERSION;
  servers: Record<string, McpStoredCredentials>;
}

/**
 * Tokens in one JSON file, readable and writable by its owner alone (0600, in a folder made 0700):
 * what a command-line user's logins need between runs, shared by every agentloop process of the user.
 * Each write replaces the file whole (written beside it, then renamed), so a reader never sees half of
 * one, and runs under a lock file beside it (`<file>.lock`), so that two processes changing two servers'
 * entries at once both keep theirs. A refresh of one server's tokens holds a lock of its own
 * (`withLock`). Throws on a file it cannot read, naming the file and what to do.
 */
export class FileTokenStore implements McpTokenStore {
  readonly path: string;
  // Writes run one after another: two logins at once must not lose one another's entry.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  async get(resource: string): Promise<McpStoredCredentials | undefined> {
    return (await this.#read()).servers[resource];
  }

  set(resource: string, credentials: McpStoredCredentials): Promise<void> {
    return this.#update((servers) => {
      servers[resource] = credentials;
    });
  }

  delete(resource: string): Promise<void> {
    return this.#update((servers) => {
      delete servers[resource];
    });
  }

  /** Runs `work` while no other process, nor another store over this file, refreshes this server's tokens. */
  async withLock<T>(resource: string, work: () => Promise<T>): Promise<T> {
    await this.#makeFolder();
    const name = createHash('sha256').update(resource).digest('hex').slice(0, 16);
    return withFileLock(`${this.path}.${name}.lock`, work, { purpose: `refreshing the token for ${resource}` });
  }

  #update(change: (servers: Record<string, McpStoredCredentials>) => void): Promise<void> {
    const next = this.#queue.then(async () => {
      await this.#makeFolder();
      // Read, change and write under the file's lock: another process's entry written meanwhile stays.
      await withFileLock(
        `${this.path}.lock`,
        async () => {
          const file = await this.#read();
          change(file.servers);
          await this.#write(file);
        },
        { purpose: `writing the token file ${this.path}` },
      );
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  async #read(): Promise<TokenFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return { version: FILE_VERSION, servers: {} };
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${this.path} is not valid JSON; delete it and log in again.`);
    }
    const record = parsed as Partial<TokenFile> | null;
    if (
      typeof record !== 'object' ||
      record === null ||
      record.version !== FILE_VERSION ||
      typeof record.servers !== 'object' ||
      record.servers === null
    ) {
      throw new Error(
        `${this.path} is not a token file of version ${FILE_VERSION}; delete it and log in again (an older agentloop may have written it).`,
      );
    }
    return { version: FILE_VERSION, servers: { ...record.servers } };
  }

  async #makeFolder(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
  }

  async #write(file: TokenFile): Promise<void> {
    // A name of its own: two stores of one process over the same file must not write into one another's.
    const temporary = `${this.path}.${process.pid}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      // The mode given to writeFile is masked by the umask: set it.
      await chmod(temporary, 0o600);
      await rename(temporary, this.path);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
  }
}
