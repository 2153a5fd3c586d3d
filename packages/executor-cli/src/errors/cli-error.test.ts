import { AgentloopError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { ConfigError, NoProviderError } from '../config/index.js';
import { CliError } from './cli-error.js';

describe('CliError', () => {
  it('is an agentloop error, with its code', () => {
    const error = new CliError('No task given.', { code: 'no_task' });
    expect(AgentloopError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(AgentloopError);
    expect(AgentloopError.from(error)).toBe(error);
    expect(error).toMatchObject({ name: 'CliError', code: 'no_task', retryable: false, action: 'stop' });
  });

  it('makes the configuration errors agentloop errors too', () => {
    expect(AgentloopError.isInstance(new ConfigError({ file: 'f', problem: 'p' }))).toBe(true);
    expect(AgentloopError.isInstance(new NoProviderError('none'))).toBe(true);
  });

  it('serialises like an AgentloopError', () => {
    expect(JSON.parse(JSON.stringify(new NoProviderError('none')))).toEqual({
      name: 'NoProviderError',
      code: 'no_provider',
      message: 'none',
      retryable: false,
      action: 'stop',
    });
  });
});
