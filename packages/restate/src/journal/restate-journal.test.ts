import type { ObjectContext } from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import { RestateJournal } from './restate-journal.js';

describe('RestateJournal', () => {
  it('says it is durable, so the loop never waits for the user inside one of its steps', () => {
    // The constructor only keeps the context: no Restate server is needed to read the marker.
    const journal = new RestateJournal({} as ObjectContext);
    expect(journal.durable).toBe(true);
  });
});

describe('RestateJournal replay order', () => {
  it('says it replays in order, so the loop runs a response’s tool calls one at a time', () => {
    expect(new RestateJournal({} as ObjectContext).replaysInOrder).toBe(true);
  });
});
