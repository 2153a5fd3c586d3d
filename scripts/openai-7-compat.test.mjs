// An app on Node 22 with openai 7 installs, type-checks and runs agentloop (scripts/openai-7-compat.mjs).
// Node 22 comes from the npm registry's `node` package; where it cannot be fetched or run (offline), the
// test skips and says why. Needs the built dist: `npx turbo run build` first.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { checkOpenAI7 } from './openai-7-compat.mjs';
import { systemToolAvailable } from './system-tools.mjs';

/** The path of a Node 22 binary from the registry's `node` package, or why there is none. */
function fetchNode22() {
  const result = spawnSync('npx', ['--yes', '--package', 'node@22', 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  const binary = result.stdout?.trim();
  if (result.status === 0 && binary) return { binary };
  return {
    missing: `\`npx -p node@22 node\` failed (${(result.stderr || result.error?.message || 'no output').trim().split('\n').at(-1)}); it fetches Node 22 from the npm registry, which must be reachable`,
  };
}

const node22 = fetchNode22();

test('an app on Node 22 installs agentloop beside openai 7, type-checks and runs it', {
  skip: !systemToolAvailable('Node 22 (npm package node@22)', node22.missing),
  timeout: 600_000,
}, async () => {
  const { result, openai, requests } = await checkOpenAI7(node22.binary);
  assert.match(openai, /^7\./, 'the app installed openai 7, which agentloop’s provider shares');
  assert.deepEqual(result, { exit: 'task_completion', payload: { result: 'It is 12:00 UTC.' }, node: result.node });
  assert.match(result.node, /^22\./);
  assert.equal(requests, 2);
});
