import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlSessionStore } from '@agentloop/sessions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/memory-output.js';
import { sessionsCommand } from './sessions-command.js';
import type { SlashContext } from './slash-command.js';

describe('/sessions', () => {
  let folder: string;
  let store: JsonlSessionStore;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'agentloop-slash-sessions-'));
    store = new JsonlSessionStore({ directory: folder });
    await store.create({ id: 'this-one', title: 'Fix the tests', workspace: '/work/here' });
    await store.create({ id: 'other-dir', title: 'Elsewhere', workspace: '/work/there' });
  });

  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const run = async (args: string) => {
    const output = new MemoryOutput();
    const command = sessionsCommand({ store: Promise.resolve(store), sessionId: () => 'this-one', cwd: '/work/here' });
    await command.run(args, { output, style: createStyle(false) } as unknown as SlashContext);
    return output.text;
  };

  it("lists this directory's sessions, marking the one in use", async () => {
    const text = await run('');

    expect(text).toMatch(/^● this-one {2}just now .* Fix the tests\n/);
    expect(text).not.toContain('other-dir');
    expect(text).toContain('agentloop --resume <id> resumes one');
  });

  it("lists every directory's sessions with `all`, with their directories", async () => {
    const text = await run('all');

    expect(text).toContain('other-dir');
    expect(text).toContain('    /work/there\n');
  });
});
