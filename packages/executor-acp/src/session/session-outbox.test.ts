import type { AgentContext } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { SessionOutbox } from './session-outbox.js';

describe('SessionOutbox', () => {
  it('sends updates in the order they were queued, each after the one before has gone', async () => {
    const sent: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = {
      notify: async (_method: string, params: { update: { text: string } }) => {
        if (params.update.text === 'first') await slow;
        sent.push(params.update.text);
      },
    } as unknown as AgentContext;
    const outbox = new SessionOutbox('s1', client, () => undefined);
    outbox.send({ text: 'first' } as never);
    outbox.send({ text: 'second' } as never);
    const flushed = outbox.flush();
    await Promise.resolve();
    expect(sent).toEqual([]);
    release();
    await flushed;
    expect(sent).toEqual(['first', 'second']);
  });

  it('says once that updates cannot be sent once the editor has gone, and never throws', async () => {
    const logged: string[] = [];
    const client = {
      notify: async () => Promise.reject(new Error('ACP connection closed')),
    } as unknown as AgentContext;
    const outbox = new SessionOutbox('s1', client, (line) => logged.push(line));
    outbox.send({} as never);
    outbox.send({} as never);
    await outbox.flush();
    expect(logged).toEqual(['session s1: updates are not sent any more: ACP connection closed']);
  });
});
