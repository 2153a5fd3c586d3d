import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** What `authorizedFetch` tells of the server's challenges. */
export interface ChallengeListener {
  noteChallengedScope(scope: string): void;
}

/**
 * The fetch of one HTTP server's transport: a bearer token goes to the server's own origin only (an SSE
 * `endpoint` or anything else that names another host gets the request without it), and the scope a
 * 401 or 403 challenge asks for is passed on, since the SDK's client-credentials grant does not see it.
 */
export function authorizedFetch(serverUrl: string, listener?: ChallengeListener, base: FetchLike = fetch): FetchLike {
  const origin = new URL(serverUrl).origin;
  return async (url, init) => {
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
    if (listener && target.origin === origin && (response.status === 401 || response.status === 403)) {
      const { scope } = extractWWWAuthenticateParams(response);
      if (scope) listener.noteChallengedScope(scope);
    }
    return response;
  };
}
