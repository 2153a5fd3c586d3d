import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCK_LEASE_MS } from './file-lock.js';
import { MemoryTokenStore } from './mcp-token-store.js';
import { REFRESH_TIMEOUT_MS, StoredOAuthProvider } from './stored-oauth-provider.js';

// The refresh a provider runs under its store's lock, as `authorizedFetch` hands it the SDK's refresh-token
// grant; "another process" is a write to the store between two steps.
const SERVER = 'https://mcp.example.com/mcp';
const NOW = 1_000_000;

async function providerWith(tokens: { access: string; refresh: string; expiresAt?: number }) {
  const store = new MemoryTokenStore();
  await store.set(SERVER, {
    tokens: { access_token: tokens.access, refresh_token: tokens.refresh, token_type: 'Bearer' },
    ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
  });
  const provider = new StoredOAuthProvider({ serverName: 'remote', serverUrl: SERVER, store, now: () => NOW });
  return { store, provider };
}

function tokenAnswer(access: string, refresh: string): Response {
  return Response.json({ access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: 60 });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('StoredOAuthProvider.refreshTokens', () => {
  it('gives up a refresh the authorization server does not answer in time, and lets the lock go', async () => {
    vi.useFakeTimers();
    const { store, provider } = await providerWith({ access: 'at-0', refresh: 'rt-0' });
    provider.noteRefusedToken('at-0');
    let sentSignal: AbortSignal | undefined;
    let called!: () => void;
    const sending = new Promise<void>((resolve) => {
      called = resolve;
    });
    // A token endpoint that never answers, and a send that does not heed its signal either.
    const refreshing = provider.refreshTokens('rt-0', (_token, signal) => {
      sentSignal = signal;
      called();
      return new Promise<Response>(() => {});
    });
    const failure = refreshing.catch((error: Error) => error);
    await sending;

    await vi.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS);

    expect(REFRESH_TIMEOUT_MS).toBeLessThan(LOCK_LEASE_MS);
    expect(((await failure) as Error).message).toBe(
      `MCP server "remote": the authorization server did not answer the token refresh within ${REFRESH_TIMEOUT_MS / 1000} s; try again later.`,
    );
    expect(sentSignal?.aborted).toBe(true);
    expect(await store.withLock(SERVER, async () => 'next')).toBe('next');
    expect((await store.get(SERVER))?.tokens?.refresh_token).toBe('rt-0');
  });

  it('answers with the tokens another process refreshed meanwhile, without sending a refresh', async () => {
    const { store, provider } = await providerWith({ access: 'at-0', refresh: 'rt-0', expiresAt: NOW - 1 });
    provider.noteRefusedToken('at-0');
    await store.set(SERVER, {
      tokens: { access_token: 'at-1', refresh_token: 'rt-1', token_type: 'Bearer' },
      expiresAt: NOW + 30_000,
    });
    const sent: string[] = [];

    const answer = await provider.refreshTokens('rt-0', async (token) => {
      sent.push(token);
      return tokenAnswer('at-x', 'rt-x');
    });

    expect(sent).toEqual([]);
    expect(await answer.json()).toEqual({
      access_token: 'at-1',
      refresh_token: 'rt-1',
      token_type: 'Bearer',
      expires_in: 30,
    });
    // The SDK saves what it got; a later refresh elsewhere must not be overwritten with it.
    await store.set(SERVER, { tokens: { access_token: 'at-2', refresh_token: 'rt-2', token_type: 'Bearer' } });
    await provider.saveTokens({ access_token: 'at-1', refresh_token: 'rt-1', token_type: 'Bearer' });
    expect((await store.get(SERVER))?.tokens?.access_token).toBe('at-2');
  });

  it('sends the newest refresh token held and stores the answer before the lock is let go', async () => {
    const { store, provider } = await providerWith({ access: 'at-0', refresh: 'rt-0' });
    provider.noteRefusedToken('at-0');
    const stored: (string | undefined)[] = [];
    const locked = store.withLock.bind(store);
    store.withLock = (resource, work) =>
      locked(resource, async () => {
        const result = await work();
        stored.push((await store.get(SERVER))?.tokens?.refresh_token);
        return result;
      });

    const answer = await provider.refreshTokens('rt-0', async (token) => tokenAnswer('at-1', `${token}-next`));

    expect(stored).toEqual(['rt-0-next']);
    expect(await answer.json()).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-0-next' });
    expect((await store.get(SERVER))?.expiresAt).toBe(NOW + 60_000);
  });

  it('keeps, after an invalid_grant, the tokens another process stored meanwhile, and drops only the refused ones', async () => {
    const refused = () => Response.json({ error: 'invalid_grant' }, { status: 400 });
    const other = await providerWith({ access: 'at-0', refresh: 'rt-0' });
    expect((await other.provider.refreshTokens('rt-0', async () => refused())).status).toBe(400);
    await other.store.set(SERVER, { tokens: { access_token: 'at-1', refresh_token: 'rt-1', token_type: 'Bearer' } });
    await other.provider.invalidateCredentials('tokens');
    expect((await other.store.get(SERVER))?.tokens?.refresh_token).toBe('rt-1');

    const alone = await providerWith({ access: 'at-0', refresh: 'rt-0' });
    await alone.provider.refreshTokens('rt-0', async () => refused());
    await alone.provider.invalidateCredentials('tokens');
    expect((await alone.store.get(SERVER))?.tokens).toBeUndefined();
  });

  it('goes on with the tokens a refresh got when the store cannot be written, and says so', async () => {
    const { store, provider } = await providerWith({ access: 'at-0', refresh: 'rt-0' });
    provider.noteRefusedToken('at-0');
    const set = store.set.bind(store);
    let writable = false;
    store.set = async (resource, credentials) => {
      if (!writable) throw new Error('EROFS: read-only file system');
      await set(resource, credentials);
    };

    const answer = await provider.refreshTokens('rt-0', async (token) => tokenAnswer('at-1', `${token}-next`));

    expect(await answer.json()).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-0-next' });
    // The SDK saves what the refresh answered: no second write to fail and throw away the refresh.
    await provider.saveTokens({ access_token: 'at-1', refresh_token: 'rt-0-next', token_type: 'Bearer' });
    expect(await provider.tokens()).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-0-next' });
    expect(await provider.expiresAt()).toBe(NOW + 60_000);
    expect(provider.tokenStoreError).toBe(
      'MCP server "remote": the refreshed tokens could not be stored (EROFS: read-only file system); this process goes on with them, but another run may need a new login.',
    );
    expect((await store.get(SERVER))?.tokens?.refresh_token).toBe('rt-0');

    // The next refresh spends the rotated refresh token, not the one the store still holds.
    provider.noteRefusedToken('at-1');
    const sent: string[] = [];
    writable = true;
    await provider.refreshTokens('rt-0', async (token) => {
      sent.push(token);
      return tokenAnswer('at-2', 'rt-2');
    });
    expect(sent).toEqual(['rt-0-next']);
    expect((await store.get(SERVER))?.tokens).toMatchObject({ access_token: 'at-2', refresh_token: 'rt-2' });
    expect(provider.tokenStoreError).toBeUndefined();
  });

  it('keeps unsaved tokens in the store at its next successful write', async () => {
    const { store, provider } = await providerWith({ access: 'at-0', refresh: 'rt-0' });
    provider.noteRefusedToken('at-0');
    const set = store.set.bind(store);
    store.set = async () => {
      throw new Error('disk full');
    };
    await provider.refreshTokens('rt-0', async () => tokenAnswer('at-1', 'rt-1'));
    store.set = set;

    await provider.saveDiscoveryState({ authorizationServerUrl: 'https://auth.example.com' });

    expect((await store.get(SERVER))?.tokens).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-1' });
    expect(provider.tokenStoreError).toBeUndefined();
  });
});
