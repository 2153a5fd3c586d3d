// Tests for system-tools.mjs, the helper the packages' tests use to skip (or, in CI, fail) without tmux,
// bubblewrap, PostgreSQL or Chromium.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { REQUIRE_SYSTEM_TOOLS, systemToolAvailable } from './system-tools.mjs';

test('says yes to a program that can run, whatever the environment', () => {
  assert.equal(systemToolAvailable('tmux', undefined, {}), true);
  assert.equal(systemToolAvailable('tmux', undefined, { [REQUIRE_SYSTEM_TOOLS]: '1' }), true);
});

test('lets the tests skip without a missing program, saying why once', (context) => {
  const warn = context.mock.method(console, 'warn', () => {});
  assert.equal(systemToolAvailable('chromium-a', 'chromium is not installed (apt-get install chromium)', {}), false);
  assert.equal(systemToolAvailable('chromium-a', 'chromium is not installed (apt-get install chromium)', {}), false);
  assert.deepEqual(
    warn.mock.calls.map((call) => call.arguments),
    [['tests that need chromium-a are skipped: chromium is not installed (apt-get install chromium)']],
  );
});

test('fails instead of skipping when AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1, saying what to install', (context) => {
  context.mock.method(console, 'warn', () => {});
  assert.throws(
    () => systemToolAvailable('bubblewrap', 'bubblewrap (bwrap) is not installed', { [REQUIRE_SYSTEM_TOOLS]: '1' }),
    {
      message:
        'bubblewrap is required by these tests (AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1) but cannot run: bubblewrap (bwrap) is not installed. Install it, or unset AGENTLOOP_REQUIRE_SYSTEM_TOOLS to let the tests that need it skip.',
    },
  );
  // Any other value keeps the skip: the variable is a switch CI sets, not a truthiness test.
  assert.equal(systemToolAvailable('bubblewrap-b', 'missing', { [REQUIRE_SYSTEM_TOOLS]: '0' }), false);
});

test('CI installs every program the tests may need and turns their skips into failures', () => {
  const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');
  for (const program of ['tmux', 'bubblewrap', 'postgresql', 'chromium']) {
    assert.match(ci, new RegExp(`missing\\+=\\(${program}\\)`), `.ci/run installs ${program}`);
  }
  const exported = ci.indexOf(`export ${REQUIRE_SYSTEM_TOOLS}=1`);
  assert.ok(
    exported !== -1 && exported < ci.indexOf('\nnpm test'),
    `.ci/run sets ${REQUIRE_SYSTEM_TOOLS}=1 before the tests`,
  );
});
