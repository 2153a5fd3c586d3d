import type { RetryPolicy, Sleep } from '@agentloop/provider-utils';
import type { ModelCallSettings } from './stream-model-call.js';

/** What every provider's options say of its model calls (each provider documents its own defaults). */
export interface ProviderCallOptions {
  retry?: Partial<RetryPolicy>;
  idleTimeoutMs?: number;
  streaming?: boolean;
  sleep?: Sleep;
  random?: () => number;
}

/**
 * The settings of a provider's model calls, from its options and its default idle timeout. A response
 * that is not streamed arrives in one piece: the SDK's own request timeout bounds it, and an idle timeout
 * would cap every answer at that length, so it gets none.
 */
export function modelCallSettings(options: ProviderCallOptions, defaultIdleTimeoutMs: number): ModelCallSettings {
  return {
    retry: options.retry,
    idleTimeoutMs: options.streaming === false ? 0 : (options.idleTimeoutMs ?? defaultIdleTimeoutMs),
    sleep: options.sleep,
    random: options.random,
  };
}
