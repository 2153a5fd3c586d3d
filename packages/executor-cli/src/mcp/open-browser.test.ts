import { describe, expect, it } from 'vitest';
import { openBrowser } from './open-browser.js';

function recorder(started = true) {
  const calls: [string, readonly string[]][] = [];
  return {
    calls,
    start: async (command: string, args: readonly string[]) => {
      calls.push([command, args]);
      return started;
    },
  };
}

const URL_TEXT = 'https://auth.example/authorize?client_id=a&state=b';

describe('openBrowser', () => {
  it('runs $BROWSER with the URL, in place of its %s or after its arguments', async () => {
    const plain = recorder();
    expect(await openBrowser(URL_TEXT, { BROWSER: 'firefox --new-tab' }, 'linux', plain.start)).toBe(true);
    expect(plain.calls).toEqual([['firefox', ['--new-tab', URL_TEXT]]]);
    const placeholder = recorder();
    await openBrowser(URL_TEXT, { BROWSER: 'w3m -o x=%s:lynx' }, 'linux', placeholder.start);
    expect(placeholder.calls).toEqual([['w3m', ['-o', `x=${URL_TEXT}`]]]);
  });

  it("uses the platform's opener without $BROWSER", async () => {
    for (const [platform, command] of [
      ['linux', 'xdg-open'],
      ['darwin', 'open'],
      ['win32', 'cmd'],
    ] as const) {
      const { calls, start } = recorder();
      await openBrowser(URL_TEXT, {}, platform, start);
      expect(calls[0]?.[0]).toBe(command);
    }
  });

  it('says false when the program cannot be started, so that the URL is printed instead', async () => {
    expect(await openBrowser(URL_TEXT, { BROWSER: '/no/such/browser' }, 'linux')).toBe(false);
  });
});
