import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { resourceKey } from './mcp-token-store.js';

/** What `authorizedFetch` tells of the server's challenges. */
export interface ChallengeListener {
  /** `stepUp`: the challenge was a 403 `insufficient_scope` to a request that carried a token. */
  noteChallengedScope(scope: string, stepUp: boolean): void;
  /** The access token of a request the server answered 401 or 403, which a refresh is to replace. */
  noteRefusedToken?(accessToken: string): void;
  /**
   * Sends a refresh-token grant in the listener's way (under a lock shared with other processes):
   * `send` posts the request, with the refresh token given in place of the SDK's, and ends it when
   * `signal` is aborted.
   */
  refreshTokens?(
    refreshToken: string,
    send: (refreshToken: string, signal?: AbortSignal) => Promise<Response>,
  ): Promise<Response>;
}

/**
 * How many `insufficient_scope` answers in a row the client authorizes again for. The SDK stops only
 * when a server repeats the same challenge; one that names a new scope each time would loop forever.
 */
export const MAX_STEP_UPS = 2;

/**
 * The fetch of one HTTP server's transport: a bearer token goes to the server's own origin only (an SSE
 * `endpoint` or anything else that names another host gets the request without it); the scope a 401 or
 * 403 challenge asks for is passed on, since the SDK's client-credentials grant does not see it; and
 * after MAX_STEP_UPS step-ups in a row, a further 403 is handed back without its challenge, so that
 * the call fails instead of authorizing again. A refresh-token grant goes through the listener's
 * `refreshTokens`, and the access token a server refused is told to it, so that a refresh knows
 * whether the tokens held are still that one.
 */
export function authorizedFetch(serverUrl: string, listener?: ChallengeListener, base: FetchLike = fetch): FetchLike {
  const origin = new URL(serverUrl).origin;
  const endpoint = resourceKey(serverUrl);
  let stepUps = 0;
  return async (url, init) => {
    const grant = init?.body instanceof URLSearchParams ? init.body : undefined;
    const refreshToken = grant?.get('grant_type') === 'refresh_token' ? grant.get('refresh_token') : null;
    if (grant && refreshToken && listener?.refreshTokens) {
      return listener.refreshTokens(refreshToken, (token, signal) => {
        const body = new URLSearchParams(grant);
        body.set('refresh_token', token);
        const signals = [init?.signal, signal].filter((each): each is AbortSignal => each instanceof AbortSignal);
        const either = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
        return base(url, { ...init, body, ...(either ? { signal: either } : {}) });
      });
    }
    const target = new URL(url instanceof URL ? url.href : String(url));
    let request = init;
    if (target.origin !== origin) {
      const headers = new Headers(init?.headers);
      if (/^bearer\s/i.test(headers.get('authorization') ?? '')) {
        headers.delete('authorization');
        request = { ...init, headers };
      }
    }
    const response = await base(url, request);
    if (target.origin !== origin) return response;
    if (response.status !== 401 && response.status !== 403) {
      // Only the MCP endpoint's own success ends a run of step-ups, not the token endpoint's.
      if (response.ok && resourceKey(target) === endpoint) stepUps = 0;
      return response;
    }
    const refused = /^bearer\s+(\S+)/i.exec(new Headers(init?.headers).get('authorization') ?? '')?.[1];
    if (refused) listener?.noteRefusedToken?.(refused);
    const { scope, error } = extractWWWAuthenticateParams(response);
    if (response.status === 403 && error === 'insufficient_scope') {
      stepUps += 1;
      if (stepUps > MAX_STEP_UPS) {
        const headers = new Headers(response.headers);
        headers.delete('www-authenticate');
        return new Response(response.body, { status: 403, statusText: response.statusText, headers });
      }
    }
    if (listener && scope)
      listener.noteChallengedScope(scope, response.status === 403 && error === 'insufficient_scope');
    return response;
  };
}
