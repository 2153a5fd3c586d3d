import { describe, expect, it } from 'vitest';
import { isLoopback, pageUrl, resolveServeSettings } from './serve-settings.js';

const TOKEN = 'a-token-of-twenty-chars';

describe('the settings of agentloop serve', () => {
  it('listens on 127.0.0.1:4680 with a random token and no other origin by default', () => {
    expect(resolveServeSettings({}, undefined, {})).toEqual({
      host: '127.0.0.1',
      port: 4680,
      token: undefined,
      allowedOrigins: [],
      open: false,
      warning: undefined,
      sessionIdleTimeoutMs: 900_000,
    });
  });

  it('keeps an idle session’s agent for [serve] session_idle_timeout seconds; 0 keeps it until the end', () => {
    expect(resolveServeSettings({}, { session_idle_timeout: 90 }, {}).sessionIdleTimeoutMs).toBe(90_000);
    expect(resolveServeSettings({}, { session_idle_timeout: 0.5 }, {}).sessionIdleTimeoutMs).toBe(500);
    expect(resolveServeSettings({}, { session_idle_timeout: 0 }, {}).sessionIdleTimeoutMs).toBe(0);
  });

  it('takes an option over [serve], and [serve] over the default', () => {
    const config = { port: 5000, host: 'localhost', allowed_origins: ['https://app.example.com/'] };
    expect(resolveServeSettings({}, config, {})).toMatchObject({
      host: 'localhost',
      port: 5000,
      allowedOrigins: ['https://app.example.com'],
    });
    expect(resolveServeSettings({ port: 0, host: '::1', open: true }, config, {})).toMatchObject({
      host: '::1',
      port: 0,
      open: true,
    });
  });

  it('reads the token from the variable token_env_var names, or from --token first', () => {
    const config = { token_env_var: 'MY_SERVE_TOKEN' };
    expect(resolveServeSettings({}, config, { MY_SERVE_TOKEN: TOKEN }).token).toBe(TOKEN);
    expect(resolveServeSettings({ token: `${TOKEN}-flag` }, config, { MY_SERVE_TOKEN: TOKEN }).token).toBe(
      `${TOKEN}-flag`,
    );
  });

  it('refuses a token_env_var naming an unset variable, saying which', () => {
    expect(() => resolveServeSettings({}, { token_env_var: 'MY_SERVE_TOKEN' }, {})).toThrow(
      /\[serve\] token_env_var names MY_SERVE_TOKEN, which is not set/,
    );
  });

  it('refuses a token shorter than 16 characters, saying where it came from', () => {
    expect(() => resolveServeSettings({ token: 'short' }, undefined, {})).toThrow(
      /The token from --token is 5 characters long: give at least 16/,
    );
    expect(() => resolveServeSettings({}, { token_env_var: 'T' }, { T: 'short' })).toThrow(
      /from the environment variable T \(\[serve\] token_env_var\) is 5 characters long/,
    );
  });

  it('refuses to listen beyond this machine without a token the user chose', () => {
    let error: unknown;
    try {
      resolveServeSettings({ host: '0.0.0.0' }, undefined, {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'invalid_serve_settings' });
    expect((error as Error).message).toMatch(
      /^Listening on 0\.0\.0\.0 lets other machines reach the agent, so it needs a token you chose: set \[serve\] token_env_var/,
    );
  });

  it('listens beyond this machine with a chosen token, and says so in one warning line', () => {
    const settings = resolveServeSettings({ host: '0.0.0.0', token: TOKEN }, undefined, {});
    expect(settings.token).toBe(TOKEN);
    expect(settings.warning).toBe(
      'agentloop serve listens on 0.0.0.0: anyone who can reach it and has the token can use the agent and its tools in this directory.',
    );
    expect(settings.warning).not.toContain('\n');
  });

  it('counts localhost, 127.0.0.0/8 and ::1 as this machine only', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['0.0.0.0', '::', '192.168.1.5', '127.0.0.1.example.com'].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("puts the token in the page address's fragment, never in its query", () => {
    expect(pageUrl('127.0.0.1', 4680, 'abc')).toBe('http://127.0.0.1:4680/#token=abc');
    expect(pageUrl('::1', 4680, 'abc')).toBe('http://[::1]:4680/#token=abc');
    expect(pageUrl('0.0.0.0', 80, 'a/b')).toBe('http://localhost:80/#token=a%2Fb');
  });
});
