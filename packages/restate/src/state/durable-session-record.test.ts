import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkedSessionRecord, storedSessionOf } from './durable-session-record.js';

const v1 = JSON.parse(readFileSync(new URL('./__fixtures__/durable-session-v1.json', import.meta.url), 'utf8'));

describe('checkedSessionRecord', () => {
  it('reads a session record of version 1 as it was released', () => {
    const stored = storedSessionOf(checkedSessionRecord('alice', v1));
    expect(stored.info).toMatchObject({ id: 'alice', title: 'Buy oat milk', turnCount: 1, messageCount: 5 });
    expect(stored.info.createdAt).toEqual(new Date('2026-11-27T18:00:00.000Z'));
    expect(stored.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(stored.usage.inputTokens).toBe(100);
  });

  it('refuses a record of another version, saying to update the workers', () => {
    expect(() => checkedSessionRecord('alice', { ...v1, schemaVersion: 2 })).toThrowError(
      expect.objectContaining({
        code: 'unsupported_session_version',
        message: expect.stringContaining('Update @agentloop/restate on every worker'),
      }),
    );
  });

  it('refuses state that is no session record, or lacks its messages, naming the session', () => {
    expect(() => checkedSessionRecord('bob', 'hello')).toThrowError(
      expect.objectContaining({ code: 'invalid_session', message: expect.stringContaining('Session bob') }),
    );
    expect(() => checkedSessionRecord('bob', { ...v1, messages: undefined })).toThrowError(
      expect.objectContaining({ code: 'invalid_session', message: expect.stringContaining('lacks its messages') }),
    );
  });
});
