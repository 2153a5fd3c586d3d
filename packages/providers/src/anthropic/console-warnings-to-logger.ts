import type Anthropic from '@anthropic-ai/sdk';

// The SDK's logger levels, as it ranks them: a warning passes at `warn` and above.
const LEVELS: Readonly<Record<string, number>> = { off: 0, error: 200, warn: 300, info: 400, debug: 500 };
const WARN = 300;

/**
 * Runs `call`, a synchronous SDK method, with `console.warn` sent to the client's logger at level `warn`
 * (its `logger` and `logLevel` options, ANTHROPIC_LOG), and so, without a logger, nowhere.
 *
 * `messages.create` warns of a deprecated model (and of a deprecated thinking setting) with `console.warn`
 * itself, not through the logger, so the warning would reach the app's terminal past the logger the app
 * chose. It does so synchronously, before the request's first await, so `console.warn` is replaced only
 * for that synchronous stretch, and put back before any other code runs. A logger that is `console` (or
 * calls it) gets the real `console.warn`.
 */
export function consoleWarningsToLogger<Value>(client: Anthropic, call: () => Value): Value {
  const original = console.warn;
  const enabled = (LEVELS[client.logLevel ?? 'warn'] ?? WARN) >= WARN;
  let forwarding = false;
  console.warn = (...args: unknown[]) => {
    if (forwarding) return original.apply(console, args);
    if (!enabled) return;
    forwarding = true;
    try {
      client.logger.warn(...(args as [string, ...unknown[]]));
    } catch {
      // A logger that fails must not fail the request it only comments on.
    } finally {
      forwarding = false;
    }
  };
  try {
    return call();
  } finally {
    console.warn = original;
  }
}
