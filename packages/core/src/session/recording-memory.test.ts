import { ConversationMemory } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { systemMessage, userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { RecordingMemory } from './recording-memory.js';

function recorded() {
  const changes: { appended: Message[][]; replaced: Message[][] } = { appended: [], replaced: [] };
  const inner = new ConversationMemory([systemMessage('rules')]);
  const memory = new RecordingMemory(inner, {
    appended: (messages) => changes.appended.push([...messages]),
    replaced: (messages) => changes.replaced.push([...messages]),
  });
  return { memory, inner, changes };
}

describe('RecordingMemory', () => {
  it('passes appends on to the memory and reports them in order', () => {
    const { memory, inner, changes } = recorded();
    memory.append(userMessage('a'), userMessage('b'));
    memory.append(userMessage('c'));

    expect(inner.messages()).toStrictEqual([
      systemMessage('rules'),
      userMessage('a'),
      userMessage('b'),
      userMessage('c'),
    ]);
    expect(changes.appended).toStrictEqual([[userMessage('a'), userMessage('b')], [userMessage('c')]]);
    expect(memory.messages()).toBe(inner.messages());
  });

  it('reports a clear or a restore as the whole conversation it leaves', () => {
    const { memory, changes } = recorded();
    memory.append(userMessage('a'));
    memory.clear();
    memory.restore({ schemaVersion: 1, messages: [userMessage('summary')] });

    expect(changes.replaced).toStrictEqual([[systemMessage('rules')], [userMessage('summary')]]);
  });

  it('reports nothing of a restore the memory refused', () => {
    const { memory, changes } = recorded();

    expect(() => memory.restore({ schemaVersion: 99, messages: [] })).toThrow(/schemaVersion 99/);
    expect(changes.replaced).toEqual([]);
  });

  it('snapshots what the memory holds', () => {
    const { memory } = recorded();
    memory.append(userMessage('a'));

    expect(memory.snapshot()).toStrictEqual({ schemaVersion: 1, messages: [systemMessage('rules'), userMessage('a')] });
  });
});
