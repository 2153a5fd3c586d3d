import { describe, expect, it } from 'vitest';
import { describeThrown } from './describe-thrown.js';

describe('describeThrown', () => {
  it("gives an error's message", () => {
    expect(describeThrown(new TypeError('bad input'))).toBe('bad input');
  });

  it('gives a thrown string as it is and other primitives as text', () => {
    expect([describeThrown('plain'), describeThrown(42), describeThrown(undefined)]).toEqual([
      'plain',
      '42',
      'undefined',
    ]);
  });

  it('describes an object without a prototype, which String() cannot convert', () => {
    expect(describeThrown(Object.create(null))).toBe('a thrown value that cannot be described ([object Object])');
  });

  it('describes an object whose toString throws', () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(describeThrown(hostile)).toBe('a thrown value that cannot be described ([object Object])');
  });

  it('describes an error whose message getter throws by its string form', () => {
    const error = new Error('hidden');
    Object.defineProperty(error, 'message', {
      get() {
        throw new Error('trap');
      },
    });
    expect(describeThrown(error)).toBe('a thrown value that cannot be described ([object Error])');
  });

  it('describes a Proxy whose every trap throws', () => {
    const trap = () => {
      throw new Error('trap');
    };
    const proxy = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap });
    expect(describeThrown(proxy)).toMatch(/^a thrown value that cannot be described/);
  });

  it('cuts a huge message', () => {
    expect(describeThrown(new Error('x'.repeat(5_000)))).toHaveLength(2_001);
  });
});
