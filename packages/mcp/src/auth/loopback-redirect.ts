import { createServer, type Server } from 'node:http';

/** A one-time HTTP listener on 127.0.0.1 that receives the authorization server's redirect. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly redirectUrl: string;
  /** Resolves with the `code` of the first redirect whose `state` matches; rejects with the server's `error`. */
  code(expectedState: () => string | undefined): Promise<string>;
  close(): Promise<void>;
}

const PAGE = (message: string): string =>
  `<!doctype html><meta charset="utf-8"><title>agentloop</title><p>${message}</p>`;

/**
 * Listens on 127.0.0.1 (never every interface: the code must not be reachable from another machine), on
 * `port` or a free one. Requests to other paths, or with another `state`, are answered 400 and ignored.
 */
export async function listenForRedirect(port = 0): Promise<LoopbackRedirect> {
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  let expected: () => string | undefined = () => undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const state = url.searchParams.get('state') ?? undefined;
    if (url.pathname !== '/callback' || !settle || state !== expected()) {
      response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE('Unexpected request.'));
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      const description = url.searchParams.get('error_description');
      response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(PAGE('The login failed; see the terminal.'));
      settle.reject(
        new Error(
          `the authorization server refused the login: ${error ?? 'no code'}${description ? ` (${description})` : ''}`,
        ),
      );
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(PAGE('Logged in. You can close this tab and go back to the terminal.'));
      settle.resolve(code);
    }
    settle = undefined;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} of 127.0.0.1 is in use; free it or choose another "redirect_port"`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    redirectUrl: `http://127.0.0.1:${actualPort}/callback`,
    code(expectedState) {
      expected = expectedState;
      return new Promise<string>((resolve, reject) => {
        settle = { resolve, reject };
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
