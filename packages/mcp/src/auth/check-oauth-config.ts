/**
 * Says what is wrong with a server's `oauth` table, or undefined when it can be used. Kept beside the
 * OAuth code rather than in checkServerConfig, which calls it, so that the rules live with their users.
 */
export function oauthConfigProblem(oauth: unknown): string | undefined {
  if (typeof oauth !== 'object' || oauth === null || Array.isArray(oauth)) return '"oauth" must be an object.';
  const record = oauth as Record<string, unknown>;
  for (const field of ['clientId', 'clientSecret', 'privateKeyFile'] as const) {
    const value = record[field];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      return `"oauth.${field}" must be a non-empty string.`;
    }
  }
  const scopes = record.scopes;
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string'))) {
    return '"oauth.scopes" must be a list of scope names, e.g. ["read", "write"].';
  }
  const grant = record.grant;
  if (grant !== undefined && grant !== 'authorization_code' && grant !== 'client_credentials') {
    return `"oauth.grant" must be "authorization_code" or "client_credentials", not ${JSON.stringify(grant)}.`;
  }
  if (grant === 'client_credentials') {
    if (record.clientId === undefined) return '"oauth.grant" "client_credentials" needs "oauth.clientId".';
    if ((record.clientSecret === undefined) === (record.privateKeyFile === undefined)) {
      return '"oauth.grant" "client_credentials" needs one of "oauth.clientSecret" and "oauth.privateKeyFile".';
    }
  } else if (record.privateKeyFile !== undefined) {
    return '"oauth.privateKeyFile" is for "oauth.grant" = "client_credentials".';
  }
  const port = record.redirectPort;
  if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65_535)) {
    return `"oauth.redirectPort" must be a port number from 1 to 65535, not ${JSON.stringify(port)}.`;
  }
  const metadataUrl = record.clientMetadataUrl;
  if (metadataUrl !== undefined && !isDocumentUrl(metadataUrl)) {
    return `"oauth.clientMetadataUrl" must be an https:// URL with a path (where your client ID metadata document is), not ${JSON.stringify(metadataUrl)}.`;
  }
  return undefined;
}

function isDocumentUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}
