import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { aguiRoute } from '../agui/agui-route.js';
import { chatMessagesRoute, chatRoute } from '../ai-sdk/chat-route.js';
import { HttpError } from '../errors/http-error.js';
import { pageRoutes } from '../page/page-routes.js';
import type { Principal } from '../runs/principal.js';
import { RunManager } from '../runs/run-manager.js';
import { bearerToken, randomToken, tokensEqual } from '../security/bearer-token.js';
import { SessionOwners } from '../sessions/session-owners.js';
import { sessionsRoutes } from '../sessions/sessions-routes.js';
import type { AgentHandlerOptions } from './agent-handler-options.js';
import type { HandlerContext, HandlerEnv } from './handler-context.js';

/** What `createAgentHandler` returns: a web-standard request handler, with its token and runs. */
export interface AgentHandler {
  /** Answers a request: mount it in `serve({ fetch })`, Bun, Deno or a Next.js route handler. */
  fetch(request: Request): Promise<Response>;
  /** The bearer token API requests must carry: the `token` option, or the random one made for this handler. */
  readonly token: string;
  /** The runs going on: for tests and for a server that reports or waits on them. */
  readonly runs: RunManager;
  /** Cancels every run and resolves once they ended. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The principal of requests with the handler's bearer token, when the app brings no `authenticate`. */
export const TOKEN_PRINCIPAL: Principal = Object.freeze({ id: 'token' });

/**
 * Serves agentloop agents over HTTP: AG-UI at `POST /api/agui`, the sessions at `/api/sessions`, each
 * under `basePath`. Every API request needs the bearer token (or passes `authenticate`); browser requests
 * from other origins are refused unless listed in `allowedOrigins`; bodies are size-limited and validated.
 * Error responses are `{ error: { code, message } }`, never a stack trace.
 */
export function createAgentHandler(options: AgentHandlerOptions): AgentHandler {
  const token = options.token ?? randomToken();
  if (options.token !== undefined && options.token.length < 16) {
    throw new TypeError(
      'The token option is too short: give at least 16 characters, or leave it out for a random one.',
    );
  }
  const runs = new RunManager({
    createAgent: options.createAgent,
    ...(options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs }),
    ...(options.onDisconnect === undefined ? {} : { onDisconnect: options.onDisconnect }),
    ...(options.maxBufferedEvents === undefined ? {} : { maxBufferedEvents: options.maxBufferedEvents }),
  });
  const owners = new SessionOwners({
    store: options.sessions,
    ...(options.authenticate ? {} : { singlePrincipal: TOKEN_PRINCIPAL.id }),
  });
  const reportError = options.onError ?? ((error: unknown) => console.error('agentloop http:', error));
  const context: HandlerContext = { runs, sessions: options.sessions, owners, reportError };
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  // Not strict: a path with a trailing slash is the path without it, so the page under a base path is
  // served at `/agent/` as at `/agent` (a link or a proxy often adds the slash); the page names its
  // assets and the API by absolute paths, so both URLs load the same.
  const app = new Hono<HandlerEnv>({ strict: false }).basePath(normalizeBasePath(options.basePath));

  app.onError((error, c) => {
    if (HttpError.isInstance(error) && error instanceof HttpError) {
      if (error.code === 'unauthorized') c.header('WWW-Authenticate', 'Bearer');
      // The client is told what failed, not why: the why (a createAgent that threw) is the server's.
      if (error.statusCode >= 500) reportError(error.cause ?? error);
      return c.json(error.toBody(), error.statusCode as 400);
    }
    reportError(error);
    return c.json(
      { error: { code: 'internal_error', message: 'The server failed to answer; its log says why.' } },
      500,
    );
  });
  app.notFound((c) =>
    c.json({ error: { code: 'not_found', message: `No route ${c.req.method} ${new URL(c.req.url).pathname}.` } }, 404),
  );

  // A browser sends Origin on cross-origin requests (and on its own POSTs): only the server's own origin
  // and the listed ones get through, so a page elsewhere cannot drive the API with a leaked token.
  app.use('/api/*', async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== new URL(c.req.url).origin && !allowedOrigins.has(origin)) {
      throw new HttpError(`Origin ${origin} may not call this API: add it to the server's allowed origins.`, {
        code: 'origin_not_allowed',
        statusCode: 403,
      });
    }
    await next();
  });
  app.use(
    '/api/*',
    cors({
      origin: (origin) => (allowedOrigins.has(origin) ? origin : null),
      allowMethods: ['GET', 'POST'],
      allowHeaders: ['Authorization', 'Content-Type'],
      maxAge: 600,
    }),
  );
  app.use('/api/*', async (c, next) => {
    c.set('principal', await authenticate(c.req.raw, options, token));
    await next();
  });
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: () => {
        throw new HttpError(`The request body is larger than ${maxBodyBytes} bytes: send less.`, {
          code: 'body_too_large',
          statusCode: 413,
        });
      },
    }),
  );

  // The routes. Each protocol route starts runs through `context.runs` (see RunManager).
  app.route('/api/sessions', sessionsRoutes(context));
  app.post('/api/agui', aguiRoute(context));
  app.post('/api/chat', chatRoute(context));
  app.get('/api/chat/:id/messages', chatMessagesRoute(context));
  app.route('/', pageRoutes(normalizeBasePath(options.basePath)));

  return {
    fetch: async (request) => app.fetch(request),
    token,
    runs,
    close: () => runs.close(),
  };
}

async function authenticate(request: Request, options: AgentHandlerOptions, token: string): Promise<Principal> {
  if (options.authenticate) {
    let principal: Principal | undefined;
    try {
      principal = await options.authenticate(request);
    } catch {
      principal = undefined;
    }
    if (principal && typeof principal.id === 'string' && principal.id !== '') return principal;
    throw new HttpError('The request was not authenticated: sign in again.', { code: 'unauthorized', statusCode: 401 });
  }
  const given = bearerToken(request.headers.get('authorization'));
  if (given === undefined) {
    throw new HttpError('The request carries no token: send the header Authorization: Bearer <token>.', {
      code: 'unauthorized',
      statusCode: 401,
    });
  }
  if (!tokensEqual(given, token)) {
    throw new HttpError('The bearer token is wrong: use the token the server printed when it started.', {
      code: 'unauthorized',
      statusCode: 401,
    });
  }
  return TOKEN_PRINCIPAL;
}

function normalizeBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '/';
  if (!basePath.startsWith('/') || /[?#]/.test(basePath)) {
    throw new TypeError(`basePath ${JSON.stringify(basePath)} is not a path: give one like "/agent".`);
  }
  return basePath.replace(/\/+$/, '');
}
