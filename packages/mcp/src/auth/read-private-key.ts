import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { McpServerError } from '../errors/index.js';

/** A PEM private key and the JWS algorithm its kind signs with. */
export async function readPrivateKey(path: string, serverName: string): Promise<{ pem: string; algorithm: string }> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (error) {
    throw new McpServerError(
      serverName,
      `MCP server "${serverName}": cannot read "oauth.privateKeyFile" ${path} (${(error as Error).message}).`,
      'invalid_server_config',
      error,
    );
  }
  const key = createPrivateKey(pem);
  const type = key.asymmetricKeyType;
  const algorithm =
    type === 'rsa' ? 'RS256' : type === 'ec' ? ecAlgorithm(key.asymmetricKeyDetails?.namedCurve) : undefined;
  if (!algorithm) {
    throw new McpServerError(
      serverName,
      `MCP server "${serverName}": "oauth.privateKeyFile" ${path} holds a ${type} key; use an RSA or an EC (P-256, P-384) key in PKCS #8 PEM.`,
      'invalid_server_config',
    );
  }
  // jose imports PKCS #8 only: convert a PKCS #1 or SEC 1 file.
  return { pem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm };
}

function ecAlgorithm(curve: string | undefined): string | undefined {
  return curve === 'prime256v1' ? 'ES256' : curve === 'secp384r1' ? 'ES384' : undefined;
}
