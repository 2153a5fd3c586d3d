import type { Message } from '@agentloop/spec';
import { systemMessage, userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { RequestHistory } from './request-history.js';

/** A user message that counts how often its role is read. */
function counted(text: string): { message: Message; reads: () => number } {
  let reads = 0;
  const message = userMessage(text);
  const { role } = message;
  Object.defineProperty(message, 'role', {
    get: () => {
      reads++;
      return role;
    },
  });
  return { message, reads: () => reads };
}

describe('RequestHistory', () => {
  it('leaves the system messages out', () => {
    const memory = [systemMessage('be brief'), userMessage('one'), systemMessage('later'), userMessage('two')];

    expect(new RequestHistory().read(memory)).toEqual([userMessage('one'), userMessage('two')]);
  });

  it('reads only the messages appended since the last read', () => {
    const first = counted('one');
    const memory: Message[] = [first.message];
    const history = new RequestHistory();
    history.read(memory);
    const second = counted('two');
    memory.push(second.message);

    expect(history.read(memory).map((message) => message.content)).toEqual([
      userMessage('one').content,
      userMessage('two').content,
    ]);
    expect([first.reads(), second.reads()]).toEqual([1, 1]);
  });

  it('hands out a new array each time, which the reader may change without changing the next read', () => {
    const memory: Message[] = [userMessage('one')];
    const history = new RequestHistory();
    const sent = history.read(memory);
    sent.push(userMessage('injected'));
    sent.splice(0, 1);
    memory.push(userMessage('two'));
    const next = history.read(memory);

    expect(next).not.toBe(sent);
    expect(next).toEqual([userMessage('one'), userMessage('two')]);
    expect(memory).toEqual([userMessage('one'), userMessage('two')]);
  });

  it('reads a new array from the start, as a restore or clear makes', () => {
    const history = new RequestHistory();
    history.read([userMessage('one'), userMessage('two')]);

    expect(history.read([userMessage('three')])).toEqual([userMessage('three')]);
  });

  it('reads the same array from the start when its first message or the last one read was replaced', () => {
    const memory: Message[] = [userMessage('one'), userMessage('two')];
    const history = new RequestHistory();
    history.read(memory);
    memory[1] = userMessage('two, compacted');

    expect(history.read(memory)).toEqual([userMessage('one'), userMessage('two, compacted')]);
    memory[0] = userMessage('one, compacted');
    expect(history.read(memory)).toEqual([userMessage('one, compacted'), userMessage('two, compacted')]);
  });

  it('reads the same array from the start after a reset, which the loop does after a compaction', () => {
    const memory: Message[] = [userMessage('one'), userMessage('two'), userMessage('three')];
    const history = new RequestHistory();
    history.read(memory);
    // In place, behind the first message and the last one read: only the reset notices it.
    memory[1] = userMessage('summary');
    history.reset();

    expect(history.read(memory)).toEqual([userMessage('one'), userMessage('summary'), userMessage('three')]);
  });

  it('reads a memory that shrank from the start', () => {
    const memory: Message[] = [userMessage('one'), userMessage('two')];
    const history = new RequestHistory();
    history.read(memory);
    memory.pop();

    expect(history.read(memory)).toEqual([userMessage('one')]);
  });
});
