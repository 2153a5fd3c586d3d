import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway project directory for one test, links resolved. */
export interface TempProject {
  dir: string;
  write(path: string, content: string): string;
  remove(): void;
}

export function createTempProject(prefix = 'agentloop-acp-'): TempProject {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return {
    dir,
    write(path, content) {
      const file = join(dir, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
