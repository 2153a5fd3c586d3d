import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openInBrowser } from './serve-command.js';

let folder: string | undefined;

afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('openInBrowser', () => {
  it('opens the address with the program $BROWSER names, the address as its one argument', async () => {
    folder = mkdtempSync(join(tmpdir(), 'agentloop-browser-'));
    const browser = join(folder, 'browser.sh');
    const opened = join(folder, 'opened.txt');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s|' "$@" > ${JSON.stringify(opened)}\n`);
    chmodSync(browser, 0o755);
    const url = 'http://127.0.0.1:4680/#token=abc123';
    const child = openInBrowser(url, { BROWSER: browser });
    const status = await new Promise((resolve) => child.on('exit', resolve));
    expect(status).toBe(0);
    expect(readFileSync(opened, 'utf8')).toBe(`${url}|`);
  });

  it('reports a $BROWSER that cannot run through the child’s error event, never by throwing', async () => {
    const child = openInBrowser('http://127.0.0.1:4680/', { BROWSER: '/nonexistent/browser' });
    const error = await new Promise<Error>((resolve) => child.on('error', resolve));
    expect((error as Error & { code?: string }).code).toBe('ENOENT');
  });
});
