import { AgentloopError } from '@agentloop/spec';

/**
 * The error of a provider that cannot work as configured, typically for want of an API key. It is thrown
 * when the provider is created rather than at its first request, so a program finds out before it starts
 * work, and the message names the environment variable to set or the option to pass.
 */
export function providerNotConfigured(message: string): AgentloopError {
  return new AgentloopError(message, { code: 'provider_not_configured' });
}
