// Tests for is-alive.mjs, which the packages' tests use to check that no child process outlives its owner.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { isAlive } from './is-alive.mjs';

test('says a running process runs, and an ended one does not', async () => {
  assert.equal(isAlive(process.pid), true);
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  assert.equal(isAlive(child.pid), true);
  child.kill('SIGKILL');
  await once(child, 'exit');
  assert.equal(isAlive(child.pid), false);
});
