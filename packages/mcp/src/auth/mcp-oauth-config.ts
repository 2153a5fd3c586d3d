/**
 * How agentloop authorizes itself to an HTTP server that wants OAuth (the MCP specification's OAuth 2.1
 * profile). Everything is optional: a server that answers 401 is discovered (its protected-resource
 * metadata, then its authorization server's), and the client registers itself where it can.
 */
export interface McpOAuthConfig {
  /**
   * A client registered with the authorization server beforehand. Without it the client uses
   * `clientMetadataUrl` where the server takes one, else dynamic client registration.
   */
  clientId?: string;
  /** The pre-registered client's secret (sent as the token endpoint asks: HTTP Basic or in the body). */
  clientSecret?: string;
  /** Scopes to ask for, beside those the server names in its `WWW-Authenticate` or its metadata. */
  scopes?: readonly string[];
  /**
   * `authorization_code` (the default: a person logs in in a browser) or `client_credentials` (a
   * machine logs in alone, with `clientId` and `clientSecret` or `privateKeyFile`).
   */
  grant?: 'authorization_code' | 'client_credentials';
  /** A PEM (PKCS #8) private key for `private_key_jwt` client authentication (client credentials). */
  privateKeyFile?: string;
  /** The loopback port of the redirect after a browser login; default a free one. */
  redirectPort?: number;
  /** The https URL of a client ID metadata document you host, for servers that accept one as a client ID. */
  clientMetadataUrl?: string;
}
