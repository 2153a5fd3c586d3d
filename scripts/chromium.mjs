// Debian's Chromium, driven through playwright-core by the tests of the web page (executor-http) and of
// `agentloop serve`'s page (executor-cli): each package's src/test-support/chromium.ts re-exports this and
// adds what depends on playwright-core itself. Where Chromium cannot run the tests skip and say why, or
// fail under AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1 as in CI (scripts/system-tools.mjs); .ci/run installs it.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemToolAvailable } from './system-tools.mjs';

/** Debian's Chromium, which `.ci/run` installs. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Why Chromium cannot run, with how to install it; undefined when `executable --version` succeeds.
 *
 * @param {string} [executable] the Chromium to try (default: Debian's)
 * @returns {string | undefined}
 */
export function chromiumMissing(executable = CHROMIUM) {
  return spawnSync(executable, ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : `${executable} does not run (Debian and Ubuntu: apt-get install chromium)`;
}

/** @type {boolean | undefined} */
let chromiumRuns;

/**
 * True when Chromium can run; where it cannot, the tests that need it skip, saying why once (or fail
 * under AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1). Asked once per process: starting Chromium is slow.
 *
 * @returns {boolean}
 */
export function chromiumAvailable() {
  chromiumRuns ??= systemToolAvailable('Chromium', chromiumMissing());
  return chromiumRuns;
}

/**
 * playwright-core's launch options for headless Chromium with a fresh profile. `--no-sandbox`: as root
 * (in CI and containers) it will not start otherwise; the pages it opens are the tests' own, on
 * 127.0.0.1. The rest keeps it from reaching the network on its own (updates, sync, QUIC probes).
 *
 * @returns {{ executablePath: string; args: string[] }} a new object each call, for the caller to extend
 */
export function chromiumLaunchOptions() {
  return {
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}

/**
 * Saves a full-page screenshot of a playwright page as `<folder>/<name>.png`, for a person to look at,
 * creating the folder, and resolves with the file's path.
 *
 * @param {{ screenshot(options: { path: string; fullPage: boolean }): Promise<unknown> }} page
 * @param {string} folder
 * @param {string} name
 * @returns {Promise<string>}
 */
export async function saveScreenshot(page, folder, name) {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
