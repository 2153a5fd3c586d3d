import type { SessionSettings } from '../config/index.js';
import { environmentSecrets } from '../verbose/index.js';

/**
 * Every secret the session knows of, for the verbose log's redactor and the `--record` cassette: the
 * provider's API key, the configured keys and header values (a `Basic …` header also as its credential
 * alone), and the environment's secret-looking variables (`*_KEY`, `*_TOKEN`, …). Texts shorter than 8
 * characters are left out: replacing them would mangle ordinary text.
 */
export function sessionSecrets(
  settings: Pick<SessionSettings, 'provider' | 'config'>,
  environment: Record<string, string | undefined>,
): string[] {
  const secrets = [
    settings.provider.apiKey,
    ...Object.values(settings.config.providers).flatMap((entry) => [
      entry.api_key,
      ...Object.values(entry.headers ?? {}).flatMap(headerSecrets),
    ]),
    ...environmentSecrets(environment),
  ];
  return [...new Set(secrets.filter((secret): secret is string => secret !== undefined && secret.length >= 8))];
}

// `Basic dXNlcjpwYXNz` may show whole or as its credential alone, without the scheme.
function headerSecrets(value: string): string[] {
  const credential = /^[A-Za-z]+\s+(\S+)$/.exec(value.trim())?.[1];
  return credential ? [value, credential] : [value];
}
