import type { SessionInfo } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { formatSessionList, sessionChoiceLabel } from './session-list-lines.js';
import { timeAgo } from './time-ago.js';

const now = new Date('2026-11-24T12:00:00Z');
const session = (id: string, hoursAgo: number, extra: Partial<SessionInfo> = {}): SessionInfo => ({
  id,
  title: `Task of ${id}`,
  model: 'claude-sonnet-4-5',
  workspace: '/work/app',
  createdAt: new Date(now.getTime() - 10 * 3_600_000),
  updatedAt: new Date(now.getTime() - hoursAgo * 3_600_000),
  turnCount: 2,
  messageCount: 12,
  tokenCount: 45_210,
  ...extra,
});

describe('formatSessionList', () => {
  it('shows each session on a line: id, age, size, model, title; the current one marked', () => {
    const text = formatSessionList([session('s-new', 0), session('s-old', 50)], {
      style: createStyle(false),
      current: 's-new',
      now,
    });

    expect(text.split('\n')).toEqual([
      '● s-new  just now         12 msgs   45,210 tokens  claude-sonnet-4-5  Task of s-new',
      '  s-old  2 days ago       12 msgs   45,210 tokens  claude-sonnet-4-5  Task of s-old',
      '',
    ]);
  });

  it("adds each session's directory when it lists every directory's", () => {
    const text = formatSessionList([session('s1', 1)], { style: createStyle(false), showWorkspace: true, now });

    expect(text).toContain('\n    /work/app\n');
  });

  it('names a session without an input yet', () => {
    expect(formatSessionList([session('s1', 1, { title: undefined })], { style: createStyle(false), now })).toContain(
      '(no input yet)',
    );
  });
});

describe('sessionChoiceLabel', () => {
  it('is the title with its age, size and directory, on every line; the hint is the id', () => {
    expect(sessionChoiceLabel(session('s1', 3), '/work/other', now)).toEqual({
      label: 'Task of s1  (3 h ago, 12 messages, in /work/app)',
      hint: 's1',
    });
    expect(sessionChoiceLabel(session('s1', 3), '/work/app', now)).toEqual({
      label: 'Task of s1  (3 h ago, 12 messages, here)',
      hint: 's1',
    });
  });
});

describe('timeAgo', () => {
  it.each([
    [10, 'just now'],
    [300, '5 min ago'],
    [7_200, '2 h ago'],
    [90_000, 'yesterday'],
    [5 * 86_400, '5 days ago'],
  ])('says %i seconds as %s', (seconds, text) => {
    expect(timeAgo(new Date(now.getTime() - seconds * 1000), now)).toBe(text);
  });

  it('gives the day past a month', () => {
    expect(timeAgo(new Date('2026-09-01T08:00:00Z'), now)).toBe('2026-09-01');
  });
});
