// Runs the example as its README does: a real restate-server, the built worker (`npm start`) as a child
// process, the deployment registered, and a session called over HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../packages/restate/src/test-support/free-port.mjs';
import {
  type RestateServer,
  restateServerAvailable,
  startRestateServer,
} from '../../../packages/restate/src/test-support/restate-server.mjs';

/** The built worker; refuses a build older than the source, which would test old code. */
function builtMain(): string {
  const built = fileURLToPath(new URL('../dist/main.js', import.meta.url));
  const source = fileURLToPath(new URL('./main.ts', import.meta.url));
  const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs;
  if (builtAt === undefined || builtAt < statSync(source).mtimeMs) {
    throw new Error(`${built} is missing or older than its source: build first (npx turbo run build).`);
  }
  return built;
}

describe.skipIf(!restateServerAvailable())('durable-agent example', () => {
  let server: RestateServer;
  let worker: ChildProcess;
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'agentloop-durable-example-'));
    server = await startRestateServer();
    const port = await freePort();
    // Only what the worker needs: no model provider in the environment, so it runs on its demo model.
    worker = spawn(process.execPath, [builtMain()], {
      cwd: directory,
      env: { PATH: process.env.PATH ?? '', HOME: directory, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      worker.stdout?.on('data', (chunk) => {
        output += chunk;
        if (output.includes('listening on port')) resolve();
      });
      worker.stderr?.on('data', (chunk) => (output += chunk));
      worker.once('exit', (code) => reject(new Error(`the worker exited (${code}):\n${output}`)));
    });
    await server.register(`http://127.0.0.1:${port}`);
  }, 60_000);

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await server?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  const run = async (session: string, task: string) => {
    const response = await fetch(`${server.ingressUrl}/notes/${session}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(task),
    });
    return { status: response.status, body: await response.json() };
  };

  it('adds a note in one run and reads it back in the next, as the README shows with curl', async () => {
    expect(await run('alice', 'Buy oat milk')).toMatchObject({
      status: 200,
      body: { exit: 'task_completion', payload: { result: 'Noted: Buy oat milk' } },
    });
    const second = await run('alice', 'Read my notes');
    expect(second.body).toMatchObject({ exit: 'task_completion', payload: { result: '- Buy oat milk' } });
    // As the README's curl sends it: no body.
    const state = await fetch(`${server.ingressUrl}/notes/alice/state`, { method: 'POST' });
    const { messages } = (await state.json()) as { messages: unknown[] };
    // Each run added five messages: its input, a tool call and its result, task_completion and its result.
    expect(messages).toHaveLength(10);
  });
});
