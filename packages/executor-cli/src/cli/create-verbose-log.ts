import type { SessionSettings } from '../config/index.js';
import type { TerminalOutput } from '../render/index.js';
import { createStyle, terminalFeatures } from '../render/index.js';
import { createRedactor, environmentSecrets, VerboseLog } from '../verbose/index.js';

/**
 * The session's verbose log on stderr, redacting every key the session knows of: the provider's, the
 * configured ones, and the environment's secret-looking variables.
 */
export function createVerboseLog(
  settings: SessionSettings,
  errorOutput: TerminalOutput,
  environment: Record<string, string | undefined>,
): VerboseLog {
  const secrets = [
    settings.provider.apiKey,
    ...Object.values(settings.config.providers).map((entry) => entry.api_key),
    ...environmentSecrets(environment),
  ];
  return new VerboseLog(
    errorOutput,
    createStyle(terminalFeatures(errorOutput, environment).color),
    createRedactor(secrets),
    settings.verbose,
  );
}
