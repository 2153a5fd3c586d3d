import { describe, expect, it } from 'vitest';
import { authorizedFetch } from './authorized-fetch.js';

function recordingFetch() {
  const sent: { url: string; authorization: string | null }[] = [];
  const base = async (url: string | URL, init?: RequestInit) => {
    sent.push({ url: String(url), authorization: new Headers(init?.headers).get('authorization') });
    return new Response('ok');
  };
  return { sent, base };
}

describe('authorizedFetch', () => {
  it("sends a bearer token to the server's origin only", async () => {
    const { sent, base } = recordingFetch();
    const fetch = authorizedFetch('https://mcp.example.com/mcp', undefined, base);
    const init = { headers: { Authorization: 'Bearer at-1' } };
    await fetch('https://mcp.example.com/messages?session=1', init);
    await fetch('https://elsewhere.example.net/messages', init);
    await fetch('http://mcp.example.com/mcp', init);
    expect(sent.map((request) => request.authorization)).toEqual(['Bearer at-1', null, null]);
  });

  it('leaves client authentication to a token endpoint elsewhere alone', async () => {
    const { sent, base } = recordingFetch();
    await authorizedFetch(
      'https://mcp.example.com/mcp',
      undefined,
      base,
    )('https://auth.example.net/token', {
      headers: { Authorization: 'Basic Y2xpZW50OnNlY3JldA==' },
    });
    expect(sent[0]?.authorization).toBe('Basic Y2xpZW50OnNlY3JldA==');
  });

  it('hands a refresh-token grant to the listener, and tells it the access token a server refused', async () => {
    const { sent, base } = recordingFetch();
    const refused: string[] = [];
    const granted: string[] = [];
    const listener = {
      noteChallengedScope() {},
      noteRefusedToken: (token: string) => refused.push(token),
      refreshTokens: async (refreshToken: string, send: (refreshToken: string) => Promise<Response>) => {
        granted.push(refreshToken);
        return send('rt-newer');
      },
    };
    const bodies: string[] = [];
    const unauthorized = async (url: string | URL, init?: RequestInit) => {
      await base(url, init);
      if (init?.body) bodies.push(String(init.body));
      return new Response('', { status: String(url).endsWith('/mcp') ? 401 : 200 });
    };
    const fetch = authorizedFetch('https://mcp.example.com/mcp', listener, unauthorized);
    await fetch('https://mcp.example.com/mcp', { headers: { Authorization: 'Bearer at-old' } });
    await fetch('https://auth.example.net/token', {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'rt-old', client_id: 'c' }),
    });
    expect(refused).toEqual(['at-old']);
    expect(granted).toEqual(['rt-old']);
    expect(sent.map((request) => request.url)).toEqual([
      'https://mcp.example.com/mcp',
      'https://auth.example.net/token',
    ]);
    expect(bodies).toEqual(['grant_type=refresh_token&refresh_token=rt-newer&client_id=c']);
  });

  it("ends a refresh-token grant when the listener's signal is aborted", async () => {
    const signals: (AbortSignal | null | undefined)[] = [];
    const base = async (_url: string | URL, init?: RequestInit) => {
      signals.push(init?.signal);
      return new Response('{}');
    };
    const stop = new AbortController();
    const listener = {
      noteChallengedScope() {},
      refreshTokens: async (_token: string, send: (token: string, signal?: AbortSignal) => Promise<Response>) =>
        send('rt-newer', stop.signal),
    };
    const fetch = authorizedFetch('https://mcp.example.com/mcp', listener, base);
    await fetch('https://auth.example.net/token', {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'rt-old' }),
    });
    expect(signals[0]?.aborted).toBe(false);
    stop.abort();
    expect(signals[0]?.aborted).toBe(true);
  });
});
