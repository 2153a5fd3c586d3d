import { describe, expect, it } from 'vitest';
import { McpServerError } from '../errors/index.js';
import { checkServerConfig } from './check-server-config.js';
import type { McpServerConfig } from './mcp-server-config.js';

function problem(name: string, config: unknown): string {
  try {
    checkServerConfig(name, config as McpServerConfig);
  } catch (error) {
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as McpServerError).code).toBe('invalid_server_config');
    return (error as Error).message;
  }
  return 'no problem';
}

describe('checkServerConfig', () => {
  it('accepts a stdio server and an HTTP server', () => {
    expect(problem('github', { command: 'npx', args: ['-y', 'server'], env: { TOKEN: 'x' }, cwd: '/tmp' })).toBe(
      'no problem',
    );
    expect(problem('docs', { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } })).toBe(
      'no problem',
    );
  });

  it('refuses names that would make tool names ambiguous, or that the XML protocol keeps', () => {
    expect(problem('my__server', { command: 'x' })).toContain('without "__"');
    expect(problem('my server', { command: 'x' })).toContain('1 to 40 letters');
    expect(problem('local', { command: 'x' })).toContain('"local" is the XML protocol');
  });

  it('asks for exactly one of command and url', () => {
    expect(problem('a', {})).toBe(
      'MCP server "a": give "command" (a program to start over stdio) or "url" (a Streamable HTTP endpoint).',
    );
    expect(problem('a', { command: 'x', url: 'https://x' })).toContain('not both');
  });

  it('names the field that is wrong', () => {
    expect(problem('a', { command: 'x', args: 'one two' })).toContain('"args" must be a list of strings');
    expect(problem('a', { command: 'x', env: { A: 1 } })).toContain('"env" must map names to string values');
    expect(problem('a', { url: 'ftp://x' })).toContain('"url" must be an http:// or https:// URL, not "ftp://x"');
    expect(problem('a', { url: 'http://x', transport: 'websocket' })).toContain('"transport" must be');
    expect(problem('a', { command: 'x', toolTimeoutMs: -1 })).toContain('"toolTimeoutMs" must be');
    expect(problem('a', { command: 'x', maxResourceBytes: 0 })).toContain(
      '"maxResourceBytes" must be a whole number of bytes, 1 or more, not 0.',
    );
    expect(problem('a', { command: 'x', maxResourceBytes: 1.5 })).toContain('"maxResourceBytes" must be');
    expect(problem('a', { command: 'x', includeTools: 'echo' })).toContain('"includeTools" must be a list');
    expect(problem('a', { command: 'x', enabled: 'yes' })).toContain('"enabled" must be true or false');
  });

  it("checks an HTTP server's oauth table", () => {
    const url = 'https://mcp.example.com/mcp';
    expect(problem('a', { url, oauth: { clientId: 'app', scopes: ['read'], redirectPort: 8765 } })).toBe('no problem');
    expect(problem('a', { command: 'x', oauth: {} })).toContain('"oauth" is for a server with "url"');
    expect(problem('a', { url, oauth: { scopes: 'read' } })).toContain('"oauth.scopes" must be a list of scope names');
    expect(problem('a', { url, oauth: { grant: 'password' } })).toContain(
      '"oauth.grant" must be "authorization_code" or "client_credentials", not "password"',
    );
    expect(problem('a', { url, oauth: { grant: 'client_credentials' } })).toContain('needs "oauth.clientId"');
    expect(problem('a', { url, oauth: { grant: 'client_credentials', clientId: 'svc' } })).toContain(
      'needs one of "oauth.clientSecret" and "oauth.privateKeyFile"',
    );
    expect(problem('a', { url, oauth: { privateKeyFile: '/k.pem' } })).toContain(
      'is for "oauth.grant" = "client_credentials"',
    );
    expect(problem('a', { url, oauth: { redirectPort: 70000 } })).toContain(
      '"oauth.redirectPort" must be a port number',
    );
    expect(problem('a', { url, oauth: { clientMetadataUrl: 'http://app.example/client.json' } })).toContain(
      '"oauth.clientMetadataUrl" must be an https:// URL with a path',
    );
  });
});
