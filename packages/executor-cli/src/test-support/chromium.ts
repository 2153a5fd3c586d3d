// Debian's Chromium for the tests of `agentloop serve`'s page: finding it, the skip reason and the
// launch options are shared with executor-http's tests (scripts/chromium.mjs); what needs
// playwright-core's types is here.
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumLaunchOptions, saveScreenshot } from '../../../../scripts/chromium.mjs';

export { CHROMIUM, chromiumAvailable } from '../../../../scripts/chromium.mjs';

/** Headless Chromium with a fresh profile, kept off the network (scripts/chromium.mjs). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}

/** Where the screenshots of `agentloop serve`'s page go: test-artifacts/serve/ in the package (ignored by git). */
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/serve/', import.meta.url));

/** Saves a screenshot as test-artifacts/serve/<name>.png in the package (ignored by git). */
export function screenshot(page: Page, name: string): Promise<string> {
  return saveScreenshot(page, ARTIFACTS, name);
}
