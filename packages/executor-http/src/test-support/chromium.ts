// Debian's Chromium for the page's tests: finding it, the skip reason and the launch options are shared
// with executor-cli's tests (scripts/chromium.mjs); what needs playwright-core's types is here.
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumLaunchOptions, saveScreenshot } from '../../../../scripts/chromium.mjs';

export { CHROMIUM, chromiumAvailable } from '../../../../scripts/chromium.mjs';

/** Launches headless Chromium with a fresh profile, kept off the network (scripts/chromium.mjs). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}

/** Where screenshots of the page's states go: test-artifacts/page/ in the package (ignored by git). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/page/', import.meta.url));

/** Saves a screenshot of the page as test-artifacts/page/<name>.png, for a person to look at. */
export function screenshot(page: Page, name: string): Promise<string> {
  return saveScreenshot(page, ARTIFACTS, name);
}
