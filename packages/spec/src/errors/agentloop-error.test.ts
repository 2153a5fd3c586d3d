import { describe, expect, it } from 'vitest';
import { AgentloopError } from './agentloop-error.js';

/** A subclass as other packages write them (ToolDefinitionError, ProviderError). */
class ExampleError extends AgentloopError {
  constructor(message: string, code = 'invalid_tool_definition') {
    super(message, { code });
  }
}

describe('AgentloopError', () => {
  it('carries its code, status and retry data', () => {
    const error = new AgentloopError('slow down', {
      code: 'rate_limit',
      retryable: true,
      retryAfterMs: 2_000,
      statusCode: 429,
    });

    expect(error).toMatchObject({
      message: 'slow down',
      code: 'rate_limit',
      retryable: true,
      retryAfterMs: 2_000,
      statusCode: 429,
    });
  });

  it('takes its name from the subclass that created it', () => {
    expect(new ExampleError('bad tool').name).toBe('ExampleError');
    expect(new AgentloopError('x', { code: 'unknown' }).name).toBe('AgentloopError');
  });

  it('is not retryable unless told so', () => {
    expect(new AgentloopError('x', { code: 'unknown' }).retryable).toBe(false);
  });

  it('derives the action "retry" from a retryable error', () => {
    expect(new AgentloopError('x', { code: 'overloaded', retryable: true }).action).toBe('retry');
  });

  it('derives the action "stop" from a non-retryable error', () => {
    expect(new AgentloopError('x', { code: 'auth', retryable: false }).action).toBe('stop');
  });

  it('keeps an explicit action over the derived one', () => {
    expect(new AgentloopError('too long', { code: 'context_length', action: 'compact' }).action).toBe('compact');
  });

  it('keeps the wrapped error as its cause', () => {
    const cause = new TypeError('fetch failed');
    expect(new AgentloopError('network', { code: 'network', cause }).cause).toBe(cause);
  });

  describe('isInstance', () => {
    it('recognises an AgentloopError', () => {
      expect(AgentloopError.isInstance(new AgentloopError('x', { code: 'unknown' }))).toBe(true);
    });

    it('recognises a subclass', () => {
      expect(AgentloopError.isInstance(new ExampleError('bad tool'))).toBe(true);
    });

    it('recognises an error from a second copy of the package by its global marker', () => {
      // A duplicated install has its own class, so `instanceof` fails; the Symbol.for marker is shared.
      const fromOtherCopy = Object.assign(new Error('from elsewhere'), {
        code: 'rate_limit',
        [Symbol.for('agentloop.error')]: true,
      });

      expect(fromOtherCopy instanceof AgentloopError).toBe(false);
      expect(AgentloopError.isInstance(fromOtherCopy)).toBe(true);
    });

    it('rejects a plain Error, a look-alike object and non-objects', () => {
      expect(AgentloopError.isInstance(new Error('x'))).toBe(false);
      expect(AgentloopError.isInstance({ code: 'rate_limit', message: 'x' })).toBe(false);
      expect(AgentloopError.isInstance(null)).toBe(false);
      expect(AgentloopError.isInstance('rate_limit')).toBe(false);
    });
  });

  it('isInstance is false, without throwing, for a Proxy whose traps throw', () => {
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(AgentloopError.isInstance(proxy)).toBe(false);
  });

  it('from wraps values that cannot be converted to a string', () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    const errors = [AgentloopError.from(Object.create(null)), AgentloopError.from(hostile)];
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      ['unknown', 'a thrown value that cannot be described ([object Object])'],
      ['unknown', 'a thrown value that cannot be described ([object Object])'],
    ]);
  });

  describe('from', () => {
    it('returns an agentloop error as it is', () => {
      const original = new ExampleError('bad tool', 'duplicate_tool');
      expect(AgentloopError.from(original)).toBe(original);
    });

    it('wraps an object that claims to be one but whose message cannot be read', () => {
      const impostor = {
        [Symbol.for('agentloop.error')]: true,
        code: 'x',
        get message(): string {
          throw new Error('no message');
        },
      };
      const wrapped = AgentloopError.from(impostor);

      expect(wrapped).not.toBe(impostor);
      expect([wrapped.code, wrapped.message]).toEqual(['unknown', '[object Object]']);
    });

    it('wraps an Error, keeping its message and the error as cause', () => {
      const cause = new RangeError('out of range');
      const wrapped = AgentloopError.from(cause, 'tool_failed');

      expect(wrapped).toBeInstanceOf(AgentloopError);
      expect(wrapped).toMatchObject({ message: 'out of range', code: 'tool_failed', cause });
    });

    it('wraps a thrown non-error value, using its text as the message', () => {
      const wrapped = AgentloopError.from('boom');

      expect(wrapped).toMatchObject({ message: 'boom', code: 'unknown', cause: 'boom' });
    });
  });

  describe('toJSON', () => {
    it('gives the fields a program acts on', () => {
      const error = new AgentloopError('slow down', {
        code: 'rate_limit',
        retryable: true,
        retryAfterMs: 500,
        statusCode: 429,
      });

      expect(error.toJSON()).toStrictEqual({
        name: 'AgentloopError',
        code: 'rate_limit',
        message: 'slow down',
        retryable: true,
        action: 'retry',
        statusCode: 429,
        retryAfterMs: 500,
      });
    });

    it('leaves out the status and retry wait when there are none', () => {
      expect(new ExampleError('bad tool').toJSON()).toStrictEqual({
        name: 'ExampleError',
        code: 'invalid_tool_definition',
        message: 'bad tool',
        retryable: false,
        action: 'stop',
      });
    });

    it('is what JSON.stringify writes', () => {
      const error = new AgentloopError('x', { code: 'unknown' });
      expect(JSON.parse(JSON.stringify(error))).toStrictEqual(error.toJSON());
    });
  });
});
