import type { SessionSettings } from '../config/index.js';
import type { TerminalOutput } from '../render/index.js';
import { createStyle, terminalFeatures } from '../render/index.js';
import { createRedactor, environmentSecrets, VerboseLog } from '../verbose/index.js';

/**
 * The session's verbose log on stderr, redacting every key the session knows of: the provider's, the
 * configured ones and the values of configured headers, and the environment's secret-looking variables.
 */
export function createVerboseLog(
  settings: SessionSettings,
  errorOutput: TerminalOutput,
  environment: Record<string, string | undefined>,
): VerboseLog {
  const secrets = [
    settings.provider.apiKey,
    ...Object.values(settings.config.providers).flatMap((entry) => [
      entry.api_key,
      ...Object.values(entry.headers ?? {}).flatMap(headerSecrets),
    ]),
    ...environmentSecrets(environment),
  ];
  return new VerboseLog(
    errorOutput,
    createStyle(terminalFeatures(errorOutput, environment).color),
    createRedactor(secrets),
    settings.verbose,
  );
}

// `Basic dXNlcjpwYXNz` may show whole or as its credential alone, without the scheme.
function headerSecrets(value: string): string[] {
  const credential = /^[A-Za-z]+\s+(\S+)$/.exec(value.trim())?.[1];
  return credential ? [value, credential] : [value];
}
