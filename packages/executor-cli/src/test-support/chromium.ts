import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { systemToolAvailable } from './system-tools.js';

/** Debian's Chromium, which `.ci/run` installs. */
export const CHROMIUM = '/usr/bin/chromium';

let chromiumRuns: boolean | undefined;

/** True when Chromium can run; where it cannot, the tests of `agentloop serve`'s page skip, saying why. */
export function chromiumAvailable(): boolean {
  chromiumRuns ??= systemToolAvailable(
    'Chromium',
    spawnSync(CHROMIUM, ['--version'], { stdio: 'ignore' }).status === 0
      ? undefined
      : `${CHROMIUM} does not run (Debian and Ubuntu: apt-get install chromium)`,
  );
  return chromiumRuns;
}

/** Headless Chromium with a fresh profile (`--no-sandbox`: as root it will not start otherwise). */
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

/** Saves a screenshot as test-artifacts/serve/<name>.png in the package (ignored by git). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const folder = fileURLToPath(new URL('../../test-artifacts/serve/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
