import { describe, expect, it } from 'vitest';
import { randomId } from './random-id.js';

describe('randomId', () => {
  it('gives a version 4 UUID, a new one each call', () => {
    const [first, second] = [randomId(), randomId()];
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second).not.toBe(first);
  });
});
