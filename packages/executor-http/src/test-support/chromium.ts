import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { systemToolAvailable } from './system-tools.js';

/** Debian's Chromium, which `.ci/run` installs. */
export const CHROMIUM = '/usr/bin/chromium';

let chromiumRuns: boolean | undefined;

/** True when Chromium can run; where it cannot, the page's tests skip, saying why (or fail in CI). */
export function chromiumAvailable(): boolean {
  chromiumRuns ??= systemToolAvailable(
    'Chromium',
    spawnSync(CHROMIUM, ['--version'], { stdio: 'ignore' }).status === 0
      ? undefined
      : `${CHROMIUM} does not run (Debian and Ubuntu: apt-get install chromium)`,
  );
  return chromiumRuns;
}

/**
 * Launches headless Chromium with a fresh profile. `--no-sandbox`: as root (in CI and containers) it
 * will not start otherwise; the pages it opens are the tests' own, on 127.0.0.1. The rest keeps it
 * from reaching the network on its own (updates, sync, QUIC probes).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
  });
}

/** Where screenshots of the page's states go: test-artifacts/page/ in the package (ignored by git). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/page/', import.meta.url));

/** Saves a screenshot of the page as test-artifacts/page/<name>.png, for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
