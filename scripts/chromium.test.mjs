// Tests for chromium.mjs, the Chromium the page tests of executor-http and executor-cli share.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, chromiumLaunchOptions, chromiumMissing, saveScreenshot } from './chromium.mjs';

test('finds no fault with a program that answers --version', () => {
  assert.equal(chromiumMissing(process.execPath), undefined);
});

test('says which Chromium does not run and how to install it', () => {
  assert.equal(
    chromiumMissing('/nonexistent/chromium'),
    '/nonexistent/chromium does not run (Debian and Ubuntu: apt-get install chromium)',
  );
});

test("launches Debian's Chromium headless and off the network, with fresh options each time", () => {
  const options = chromiumLaunchOptions();
  assert.equal(options.executablePath, CHROMIUM);
  assert.equal(CHROMIUM, '/usr/bin/chromium');
  for (const flag of ['--no-sandbox', '--headless', '--disable-background-networking', '--disable-sync']) {
    assert.ok(options.args.includes(flag), `launches with ${flag}`);
  }
  options.args.push('--caller-flag');
  assert.equal(chromiumLaunchOptions().args.includes('--caller-flag'), false);
});

test('saves a full-page screenshot as <folder>/<name>.png, creating the folder', async (context) => {
  const root = mkdtempSync(join(tmpdir(), 'agentloop-chromium-test-'));
  context.after(() => rmSync(root, { recursive: true, force: true }));
  const folder = join(root, 'page');
  const calls = [];
  const path = await saveScreenshot({ screenshot: async (options) => calls.push(options) }, folder, '01-empty');
  assert.equal(path, join(folder, '01-empty.png'));
  assert.deepEqual(calls, [{ path, fullPage: true }]);
  assert.equal(existsSync(folder), true);
});

test('CI installs Chromium where the tests launch it, by the same path', () => {
  const ciRun = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '.ci', 'run'), 'utf8');
  const lines = ciRun.split('\n').filter((line) => line.includes('missing+=(chromium)'));
  assert.deepEqual(lines, [`[ -x ${CHROMIUM} ] || missing+=(chromium)`]);
});
