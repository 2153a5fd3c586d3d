import type { Message } from '@agentloop/spec';
import { userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { BufferedTurn } from './buffered-turn.js';
import { thrownBy } from './test-support/caught.js';

const user = (text: string): Message => userMessage(text);
const json = (text: string) => JSON.stringify(userMessage(text));
/** A message JSON cannot hold: a BigInt in a tool call's arguments. */
const unsaveable = { ...userMessage('x'), extra: 1n } as unknown as Message;

describe('BufferedTurn', () => {
  it('gives the added messages as JSON, and starts the next turn empty', () => {
    const turn = new BufferedTurn();
    turn.append(user('one'));
    turn.append(user('two'));
    expect(turn.take()).toEqual({
      replaced: undefined,
      added: [json('one'), json('two')],
    });
    expect(turn.take()).toEqual({ replaced: undefined, added: [] });
  });

  it('replaces the conversation, dropping what the turn added before, keeping what it adds after', () => {
    const turn = new BufferedTurn();
    turn.append(user('before'));
    turn.replace([user('summary')]);
    turn.append(user('after'));
    expect(turn.take()).toEqual({
      replaced: [json('summary')],
      added: [json('after')],
    });
  });

  it('fails every later call and the commit with its first failure, then drops the turn', () => {
    const turn = new BufferedTurn();
    turn.append(user('kept until the failure'));
    const first = thrownBy(() => turn.append(unsaveable));
    expect((first as Error).message).toMatch(/^A message cannot be saved as JSON/);
    expect(thrownBy(() => turn.append(user('later')))).toBe(first);
    expect(thrownBy(() => turn.replace([user('later')]))).toBe(first);
    expect(thrownBy(() => turn.take())).toBe(first);
    // The failed turn is gone: the next one starts empty and clean.
    turn.append(user('next'));
    expect(turn.take()).toEqual({ replaced: undefined, added: [json('next')] });
  });

  it('forgets the turn and its failure when dropped', () => {
    const turn = new BufferedTurn();
    turn.replace([user('summary')]);
    expect(() => turn.append(unsaveable)).toThrow('A message cannot be saved as JSON');
    turn.drop();
    expect(turn.take()).toEqual({ replaced: undefined, added: [] });
  });
});
