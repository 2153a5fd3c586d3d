// Tests for mcp-conformance.mjs (how it reads the expected failures, the suite's list, and a scenario's
// result), and that the repository's expected-failures file reads; run by `node --test scripts/*.test.mjs`.
// The check itself installs the suite from the npm registry, so it is a CI step, not a test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  EXPECTED_FAILURES,
  parseExpectedFailures,
  parseScenarioList,
  verdict,
  withOneRetry,
} from './mcp-conformance.mjs';

const check = (status, id = 'some-check') => ({ id, status, description: `${id} described` });

test('reads each expected failure with the comment above it as its reason', () => {
  const expected = parseExpectedFailures(
    ['# The file says why.', 'client:', '  # Not served: no such grant.', '  # Second line.', '  - auth/x', ''].join(
      '\n',
    ),
  );
  assert.deepEqual([...expected], [['auth/x', 'Not served: no such grant. Second line.']]);
});

test('refuses an expected failure without a reason, naming it', () => {
  assert.throws(() => parseExpectedFailures('client:\n  - auth/x\n'), /"auth\/x" has no reason above it/);
});

test("leaves the server section's entries out", () => {
  const expected = parseExpectedFailures('server:\n  # why\n  - tools-list\nclient:\n  # why\n  - initialize\n');
  assert.deepEqual([...expected.keys()], ['initialize']);
});

test("the repository's expected failures read, each with a reason", () => {
  const expected = parseExpectedFailures(readFileSync(EXPECTED_FAILURES, 'utf8'));
  assert.ok(expected.size > 0);
  for (const [scenario, reason] of expected) assert.ok(reason.length > 40, `${scenario}: ${reason}`);
});

test("reads the client scenarios from the suite's list", () => {
  const listed = parseScenarioList(
    'Client scenarios (test against a client):\n  - initialize [2025-06-18,2025-11-25]\n  - auth/basic-cimd [2025-11-25]\n',
  );
  assert.deepEqual(listed, ['initialize', 'auth/basic-cimd']);
});

test('a scenario passes when the suite exits 0 and no check failed or warned', () => {
  const outcome = verdict(
    { scenario: 'initialize', exitCode: 0, checks: [check('SUCCESS'), check('INFO')] },
    new Map(),
  );
  assert.deepEqual(outcome, { ok: true, line: '✓ initialize (1 checks passed)' });
});

test('a scenario fails with its failed checks, or the client’s last words when no check failed', () => {
  const failed = verdict(
    { scenario: 'auth/x', exitCode: 1, checks: [check('SUCCESS'), check('WARNING', 'scope')], stderr: 'boom' },
    new Map(),
  );
  assert.equal(failed.ok, false);
  assert.equal(failed.line, '✗ auth/x: scope: scope described');
  const crashed = verdict(
    { scenario: 'auth/x', exitCode: 1, checks: [check('SUCCESS')], stderr: 'first\nclient: it broke\n' },
    new Map(),
  );
  assert.equal(crashed.line, '✗ auth/x: client: it broke');
});

test('an expected failure that fails is fine, and one that passes fails the check', () => {
  const expected = new Map([['auth/x', 'No such grant: the reason goes on.']]);
  const failing = verdict({ scenario: 'auth/x', exitCode: 1, checks: [check('FAILURE')] }, expected);
  assert.deepEqual(failing, { ok: true, expected: true, line: '~ auth/x: expected failure (No such grant)' });
  const passing = verdict({ scenario: 'auth/x', exitCode: 0, checks: [check('SUCCESS')] }, expected);
  assert.equal(passing.ok, false);
  assert.match(passing.line, /passes, but is listed as an expected failure/);
});

test('a failing scenario is run once more, and passes when the second run does, saying so', async () => {
  const failed = { ok: false, line: '✗ sse-retry: client-sse-retry-timing: Client reconnected slightly late' };
  const passed = { ok: true, line: '✓ sse-retry (3 checks passed)' };
  let runs = 0;
  const outcome = await withOneRetry(failed, async () => {
    runs += 1;
    return passed;
  });
  assert.equal(runs, 1);
  assert.equal(outcome.ok, true);
  assert.equal(
    outcome.line,
    '✓ sse-retry (3 checks passed), on the second try (the first: sse-retry: client-sse-retry-timing: Client reconnected slightly late)',
  );
});

test('a scenario that fails twice fails with the first run, and a pass is never run again', async () => {
  const failed = { ok: false, line: '✗ initialize: one' };
  assert.deepEqual(await withOneRetry(failed, async () => ({ ok: false, line: '✗ initialize: two' })), failed);
  const passed = { ok: true, line: '✓ initialize (1 checks passed)' };
  assert.equal(await withOneRetry(passed, async () => assert.fail('ran again')), passed);
});
