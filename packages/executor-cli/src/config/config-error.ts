import { CliError } from '../errors/index.js';

/** Options of a ConfigError. */
export interface ConfigErrorOptions {
  /** The file that is wrong. */
  file: string;
  /** The key that is wrong, dotted (`providers.openai.base_url`); absent for a syntax error. */
  key?: string;
  /** What is wrong with it. */
  problem: string;
  cause?: unknown;
}

/** A configuration file cannot be read, parsed or validated. The message names the file, the key and the problem. */
export class ConfigError extends CliError {
  /** The file that is wrong. */
  readonly file: string;
  /** The key that is wrong, when there is one. */
  readonly key: string | undefined;
  /** What is wrong. */
  readonly problem: string;

  constructor(options: ConfigErrorOptions) {
    const where = options.key ? `key "${options.key}" ` : '';
    super(`Invalid configuration in ${options.file}: ${where}${options.problem}`, {
      code: 'invalid_config',
      cause: options.cause,
    });
    this.file = options.file;
    this.key = options.key;
    this.problem = options.problem;
  }
}
