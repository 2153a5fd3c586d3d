import { emptyUsage } from '@agentloop/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRecordSchemas } from '../records/load-record-schemas.js';
import { sessionInfos } from './session-infos.js';
import type { SessionRow } from './session-row.js';

const row = (id: string, changes: Partial<SessionRow> = {}): SessionRow => ({
  id,
  title: `Session ${id}`,
  model: 'gpt-4o',
  workspace: '/work/project',
  created_at: 1_700_000_000_000,
  updated_at: 1_700_000_060_000,
  turn_count: 1,
  message_count: 2,
  usage: JSON.stringify(emptyUsage()),
  pending_question: null,
  forked_from: null,
  forked_at_message: null,
  writer: null,
  ...changes,
});

describe('sessionInfos', () => {
  beforeAll(() => loadRecordSchemas());

  it('gives the info of each row, in their order', () => {
    const infos = sessionInfos([row('b'), row('a')], 'sessions.sqlite');
    expect(infos.map((info) => info.id)).toEqual(['b', 'a']);
    expect(infos[0]).toMatchObject({ title: 'Session b', model: 'gpt-4o', workspace: '/work/project', turnCount: 1 });
  });

  it('leaves a damaged row out instead of failing the list', () => {
    const infos = sessionInfos([row('a'), row('damaged', { usage: 'not json' }), row('c')], 'sessions.sqlite');
    expect(infos.map((info) => info.id)).toEqual(['a', 'c']);
  });
});
