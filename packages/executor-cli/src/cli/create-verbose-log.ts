import type { SessionSettings } from '../config/index.js';
import type { TerminalOutput } from '../render/index.js';
import { createStyle, terminalFeatures } from '../render/index.js';
import { createRedactor, VerboseLog } from '../verbose/index.js';
import { sessionSecrets } from './session-secrets.js';

/**
 * The session's verbose log on stderr, redacting every key the session knows of: the provider's, the
 * configured ones and the values of configured headers, and the environment's secret-looking variables.
 */
export function createVerboseLog(
  settings: SessionSettings,
  errorOutput: TerminalOutput,
  environment: Record<string, string | undefined>,
): VerboseLog {
  return new VerboseLog(
    errorOutput,
    createStyle(terminalFeatures(errorOutput, environment).color),
    createRedactor(sessionSecrets(settings, environment)),
    settings.verbose,
  );
}
