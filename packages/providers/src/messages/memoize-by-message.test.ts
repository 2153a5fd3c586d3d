import type { Message } from '@agentloop/spec';
import { describe, expect, it, vi } from 'vitest';
import { memoizeByMessage } from './memoize-by-message.js';

describe('memoizeByMessage', () => {
  it('converts a message once however often it is asked for', () => {
    const convert = vi.fn((message: Message) => message.content.length);
    const cached = memoizeByMessage(convert);
    const message: Message = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    expect([cached(message), cached(message)]).toEqual([1, 1]);
    expect(convert).toHaveBeenCalledOnce();
  });

  it('converts again when parts were added to the message', () => {
    const cached = memoizeByMessage((message: Message) => message.content.length);
    const message: Message = { role: 'user', content: [{ type: 'text', text: 'a' }] };
    expect(cached(message)).toBe(1);
    message.content.push({ type: 'text', text: 'b' });
    expect(cached(message)).toBe(2);
  });
});
