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

describe('event ids', () => {
  it("numbers a run's events by scope and type, so that one scope's events shift no other's ids", () => {
    const bus = new AgentEventBus();
    const ids: string[] = [];
    bus.onAny((event) => ids.push(event.eventId ?? ''));
    bus.beginRun('run-1');
    bus.emit({ type: 'loop-start', runId: 'run-1', input: 'go' });
    const model = bus.scope('model:1');
    model.emit({ type: 'message-start', iteration: 1 });
    model.emit({ type: 'message-content', iteration: 1, text: 'a' });
    model.emit({ type: 'message-content', iteration: 1, text: 'b' });
    bus.emit({ type: 'loop-iteration', runId: 'run-1', iteration: 2 });
    bus.emit({ type: 'loop-iteration', runId: 'run-1', iteration: 3 });
    expect(ids).toEqual([
      'run-1/run/loop-start/1',
      'run-1/model:1/message-start/1',
      'run-1/model:1/message-content/1',
      'run-1/model:1/message-content/2',
      'run-1/run/loop-iteration/1',
      'run-1/run/loop-iteration/2',
    ]);
  });

  it('gives events between runs random ids, and stops numbering only the run that ended', () => {
    const bus = new AgentEventBus();
    const ids: string[] = [];
    bus.onAny((event) => ids.push(event.eventId ?? ''));
    bus.emit(queued);
    bus.emit(queued);
    bus.beginRun('run-1');
    bus.beginRun('run-2');
    // A loop-end listener started run-2 before run-1's end was marked: run-2 keeps its numbering.
    bus.endRun('run-1');
    bus.emit(queued);
    bus.endRun('run-2');
    bus.emit(queued);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[2]).toBe('run-2/run/input-queued/1');
    expect(ids[3]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
