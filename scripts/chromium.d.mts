/** Debian's Chromium, which `.ci/run` installs. */
export declare const CHROMIUM: '/usr/bin/chromium';

/** Why Chromium cannot run, with how to install it; undefined when `executable --version` succeeds. */
export declare function chromiumMissing(executable?: string): string | undefined;

/**
 * True when Chromium can run; where it cannot, the tests that need it skip, saying why once (or fail
 * under AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1). Asked once per process: starting Chromium is slow.
 */
export declare function chromiumAvailable(): boolean;

/**
 * playwright-core's launch options for headless Chromium with a fresh profile, kept off the network; a
 * new object each call, for the caller to extend.
 */
export declare function chromiumLaunchOptions(): { executablePath: string; args: string[] };

/**
 * Saves a full-page screenshot of a playwright page as `<folder>/<name>.png`, for a person to look at,
 * creating the folder, and resolves with the file's path.
 */
export declare function saveScreenshot(
  page: { screenshot(options: { path: string; fullPage: boolean }): Promise<unknown> },
  folder: string,
  name: string,
): Promise<string>;
