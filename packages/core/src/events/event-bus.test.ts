import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from './agent-events.js';
import { AgentEventBus } from './event-bus.js';

const queued = { type: 'input-queued', text: 'hi' } as const;

describe('AgentEventBus', () => {
  it('reports a rejected async listener as listener-error instead of an unhandled rejection', async () => {
    const bus = new AgentEventBus();
    const seen: AgentEvent[] = [];
    bus.onAny((event) => seen.push(event));
    bus.on('input-queued', async () => {
      throw new Error('async bug');
    });
    bus.emit(queued);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen.map((event) => event.type)).toEqual(['input-queued', 'listener-error']);
    expect(seen[1]).toMatchObject({ event: 'input-queued', error: new Error('async bug') });
  });

  it('forgets a listener removed with off, so on/off cycles do not leak', () => {
    const bus = new AgentEventBus();
    const listener = vi.fn();
    for (let i = 0; i < 1000; i++) bus.on('input-queued', listener).off('input-queued', listener);
    bus.emit(queued);
    expect(listener).not.toHaveBeenCalled();
    expect(bus.listenerCount('input-queued')).toBe(0);
  });

  it('removes one registration per off when a listener was added twice', () => {
    const bus = new AgentEventBus();
    const listener = vi.fn();
    bus.on('input-queued', listener).on('input-queued', listener).off('input-queued', listener);
    bus.emit(queued);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('lets off remove a once listener before it fires', () => {
    const bus = new AgentEventBus();
    const listener = vi.fn();
    bus.once('input-queued', listener).off('input-queued', listener);
    bus.emit(queued);
    expect(listener).not.toHaveBeenCalled();
  });

  it('takes more than ten listeners of one event without a leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const bus = new AgentEventBus();
      const listener = vi.fn();
      for (let i = 0; i < 12; i++) bus.on('input-queued', () => listener());
      bus.emit(queued);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(listener).toHaveBeenCalledTimes(12);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('stops a catch-all listener with the function onAny returns', () => {
    const bus = new AgentEventBus();
    const listener = vi.fn();
    const stop = bus.onAny(listener);
    bus.emit(queued);
    stop();
    bus.emit(queued);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
