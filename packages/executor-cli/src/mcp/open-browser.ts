import { spawn } from 'node:child_process';

/** How a program is started; injectable for tests. */
export type SpawnProgram = (command: string, args: readonly string[]) => Promise<boolean>;

/**
 * Opens a URL in the user's browser: the program `$BROWSER` names (its `%s` replaced by the URL, or the
 * URL added as its last argument), else the platform's opener (`open`, `xdg-open`, `start`). Resolves
 * false when none could be started, so that the caller says where to go instead. Never rejects.
 */
export async function openBrowser(
  url: string,
  environment: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  start: SpawnProgram = startDetached,
): Promise<boolean> {
  const browser = environment.BROWSER?.split(':')[0]?.trim();
  if (browser) {
    const [command = '', ...args] = browser.split(/\s+/);
    const withUrl = args.some((arg) => arg.includes('%s'))
      ? args.map((arg) => arg.replaceAll('%s', url))
      : [...args, url];
    return start(command, withUrl);
  }
  if (platform === 'darwin') return start('open', [url]);
  if (platform === 'win32') return start('cmd', ['/c', 'start', '""', url.replaceAll('&', '^&')]);
  return start('xdg-open', [url]);
}

/** Starts a program that outlives nothing of ours: its output is ignored and the CLI does not wait for it. */
function startDetached(command: string, args: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
