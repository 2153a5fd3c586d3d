import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CtrlCWatch } from './ctrl-c-watch.js';

describe('CtrlCWatch', () => {
  it('notes Ctrl-C, and no other key, while it listens', () => {
    const input = new PassThrough();
    const watch = new CtrlCWatch(input);
    input.emit('keypress', 'c', { name: 'c' });
    input.emit('keypress', '\u001b', { name: 'escape' });
    input.emit('keypress', undefined, undefined);
    expect(watch.pressed).toBe(false);
    input.emit('keypress', '\u0003', { name: 'c', ctrl: true });
    expect(watch.pressed).toBe(true);
  });

  it('stops listening on stop()', () => {
    const input = new PassThrough();
    const watch = new CtrlCWatch(input);
    expect(input.listenerCount('keypress')).toBe(1);
    watch.stop();
    expect(input.listenerCount('keypress')).toBe(0);
    input.emit('keypress', '\u0003', { name: 'c', ctrl: true });
    expect(watch.pressed).toBe(false);
  });
});
