// A protected MCP server and its OAuth authorization server on 127.0.0.1, for the tests of the client's
// OAuth support. Plain JavaScript (with oauth-fixture-server.d.mts) so that the CLI's end-to-end tests
// can start it as a program too. Built on the SDK's own server pieces: its authorization, token and
// registration handlers (which check PKCE and redirect URIs), requireBearerAuth and the Streamable HTTP
// transport; what the SDK leaves out (client credentials, HTTP Basic and private_key_jwt client
// authentication) is added in front of its token handler.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express from 'express';
import { importSPKI, jwtVerify } from 'jose';

/**
 * @param {import('./oauth-fixture-server.d.mts').OAuthFixtureOptions} options
 * @returns {Promise<import('./oauth-fixture-server.d.mts').OAuthFixtureServer>}
 */
export async function startOAuthFixtureServer(options = {}) {
  const discovery = options.discovery ?? 'www-authenticate';
  const tokenLifetime = options.tokenLifetimeSeconds ?? 3600;
  const seen = {
    mcpAuthorization: [],
    authorizations: [],
    tokenRequests: [],
    registrations: [],
    metadataRequests: [],
  };
  const clients = new Map();
  const codes = new Map();
  const accessTokens = new Map();
  const refreshTokens = new Map();
  for (const client of options.clients ?? []) clients.set(client.client_id, client);

  const issue = (clientId, scopes, resource) => {
    const token = `at-${randomBytes(12).toString('hex')}`;
    const refresh = `rt-${randomBytes(12).toString('hex')}`;
    const expiresAt = Math.floor(Date.now() / 1000) + tokenLifetime;
    accessTokens.set(token, {
      token,
      clientId,
      scopes,
      expiresAt,
      ...(resource ? { resource: new URL(resource) } : {}),
    });
    refreshTokens.set(refresh, { clientId, scopes, resource });
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: tokenLifetime,
      scope: scopes.join(' '),
      ...(options.noRefreshTokens ? {} : { refresh_token: refresh }),
    };
  };

  const provider = {
    clientsStore: {
      getClient: (id) => clients.get(id) ?? options.metadataDocuments?.[id],
      ...(options.dynamicRegistration === false
        ? {}
        : {
            registerClient: (client) => {
              seen.registrations.push(client);
              clients.set(client.client_id, client);
              return client;
            },
          }),
    },
    async authorize(client, params, response) {
      seen.authorizations.push({ clientId: client.client_id, ...params, resource: params.resource?.href });
      const code = randomUUID();
      codes.set(code, { client, params });
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state) target.searchParams.set('state', params.state);
      response.redirect(302, target.href);
    },
    async challengeForAuthorizationCode(_client, code) {
      const entry = codes.get(code);
      if (!entry) throw new InvalidGrantError('unknown code');
      return entry.params.codeChallenge;
    },
    async exchangeAuthorizationCode(client, code, _verifier, _redirectUri, resource) {
      const entry = codes.get(code);
      codes.delete(code);
      if (!entry || entry.client.client_id !== client.client_id) throw new InvalidGrantError('unknown code');
      return issue(client.client_id, entry.params.scopes ?? [], resource?.href ?? entry.params.resource?.href);
    },
    // Refresh tokens rotate, as OAuth 2.1 wants of a public client's: each is taken once, and a reused one
    // is refused (invalid_grant).
    async exchangeRefreshToken(client, refreshToken, scopes, resource) {
      const entry = refreshTokens.get(refreshToken);
      if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
      refreshTokens.delete(refreshToken);
      return issue(client.client_id, scopes ?? entry.scopes, resource?.href ?? entry.resource);
    },
    async verifyAccessToken(token) {
      const info = accessTokens.get(token);
      if (!info) throw new InvalidTokenError('unknown token');
      return info;
    },
  };

  const app = express();
  const server = createServer(app);
  await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const mcpUrl = `${origin}/mcp`;
  const prmUrl =
    discovery === 'www-authenticate'
      ? `${origin}/custom/resource-metadata`
      : `${origin}/.well-known/oauth-protected-resource/mcp`;
  const authMethods = options.tokenEndpointAuthMethods ?? ['client_secret_basic', 'client_secret_post', 'none'];
  const asMetadata = {
    issuer: `${origin}/`,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    ...(options.dynamicRegistration === false ? {} : { registration_endpoint: `${origin}/register` }),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: authMethods,
    ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
    ...(options.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
    ...(options.openIdOnly
      ? {
          jwks_uri: `${origin}/jwks`,
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }
      : {}),
  };
  const metadata = (name, body) => (_request, response) => {
    seen.metadataRequests.push(name);
    response.json(body);
  };
  if (discovery !== 'legacy' && discovery !== 'none') {
    app.get(
      new URL(prmUrl).pathname,
      metadata('protected-resource', {
        resource: mcpUrl,
        authorization_servers: [`${origin}/`],
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      }),
    );
  }
  if (options.openIdOnly) app.get('/.well-known/openid-configuration', metadata('openid', asMetadata));
  else if (discovery !== 'none') app.get('/.well-known/oauth-authorization-server', metadata('oauth', asMetadata));

  const noLimit = { rateLimit: false };
  app.use('/authorize', authorizationHandler({ provider, ...noLimit }));
  if (options.dynamicRegistration !== false) {
    app.use('/register', clientRegistrationHandler({ clientsStore: provider.clientsStore, ...noLimit }));
  }
  app.use(
    '/token',
    express.urlencoded({ extended: false }),
    async (request, response, next) => {
      const body = request.body ?? {};
      const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
      let method = body.client_secret ? 'client_secret_post' : 'none';
      if (basic) {
        const [id, secret] = Buffer.from(basic[1], 'base64').toString().split(':').map(decodeURIComponent);
        body.client_id = id;
        body.client_secret = secret;
        method = 'client_secret_basic';
      }
      if (body.client_assertion) {
        method = 'private_key_jwt';
        const client =
          clients.get(body.client_id) ?? [...clients.values()].find((candidate) => candidate.public_key_pem);
        try {
          const key = await importSPKI(client.public_key_pem, client.jwt_alg ?? 'RS256');
          const { payload } = await jwtVerify(body.client_assertion, key, { audience: asMetadata.issuer });
          body.client_id = payload.sub;
        } catch (error) {
          seen.tokenRequests.push({ grant: body.grant_type, method, rejected: String(error) });
          response.status(401).json({ error: 'invalid_client', error_description: String(error) });
          return;
        }
      }
      seen.tokenRequests.push({ grant: body.grant_type, method, scope: body.scope, resource: body.resource });
      if (body.grant_type === 'refresh_token') await options.beforeRefresh?.(body.refresh_token);
      if (!authMethods.includes(method) && method !== 'private_key_jwt') {
        response.status(401).json({ error: 'invalid_client', error_description: `${method} is not accepted` });
        return;
      }
      if (body.grant_type !== 'client_credentials') return next();
      const client = clients.get(body.client_id);
      if (
        !client ||
        (client.client_secret && client.client_secret !== body.client_secret && method !== 'private_key_jwt')
      ) {
        response.status(401).json({ error: 'invalid_client' });
        return;
      }
      response.json(issue(client.client_id, (body.scope ?? '').split(' ').filter(Boolean), body.resource));
    },
    tokenHandler({ provider, ...noLimit }),
  );

  const bearer = requireBearerAuth({
    verifier: provider,
    ...(discovery === 'www-authenticate' ? { resourceMetadataUrl: prmUrl } : {}),
    ...(options.requiredScopes ? { requiredScopes: options.requiredScopes } : {}),
  });
  app.use('/mcp', (request, _response, next) => {
    seen.mcpAuthorization.push(request.headers.authorization ?? '');
    next();
  });
  // A server that lets the handshake through without a token, and asks for one from the first request on.
  const openHandshake = (request) =>
    options.openHandshake &&
    (request.body?.method === 'initialize' || String(request.body?.method).startsWith('notifications/'));
  const bearerUnlessHandshake = (request, response, next) =>
    openHandshake(request) ? next() : bearer(request, response, next);
  app.post('/mcp', express.json(), bearerUnlessHandshake, async (request, response) => {
    const stepUp = options.stepUpScope;
    const granted = request.auth?.scopes ?? [];
    if (
      stepUp &&
      request.body?.method === 'tools/call' &&
      request.body.params?.name === 'admin' &&
      !granted.includes(stepUp)
    ) {
      response.set(
        'WWW-Authenticate',
        `Bearer error="insufficient_scope", scope="${options.stepUpAlwaysRefuses ? `${stepUp}-${randomUUID()}` : stepUp}"${discovery === 'www-authenticate' ? `, resource_metadata="${prmUrl}"` : ''}`,
      );
      response.status(403).json({ error: 'insufficient_scope' });
      return;
    }
    const mcp = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says which client and scopes the token carries.' }, async (extra) => ({
      content: [{ type: 'text', text: `${extra.authInfo?.clientId} ${extra.authInfo?.scopes.join(',')}` }],
    }));
    mcp.registerTool('admin', { description: 'Needs the step-up scope.' }, async () => ({
      content: [{ type: 'text', text: 'admin done' }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  app.all('/mcp', bearer, (_request, response) => response.status(405).end());

  return {
    url: mcpUrl,
    origin,
    seen,
    expireTokens() {
      for (const info of accessTokens.values()) info.expiresAt = Math.floor(Date.now() / 1000) - 1;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
