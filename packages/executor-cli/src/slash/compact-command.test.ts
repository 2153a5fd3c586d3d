import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/memory-output.js';
import { compactCommand } from './compact-command.js';
import type { SlashContext } from './slash-command.js';

const read = (n: number) => ({
  toolCalls: [{ name: 'converse', arguments: { message: `Read part ${n}: ${'x'.repeat(4_000)}` } }],
  usage: { inputTokens: 1_000 * n, outputTokens: 1_100 },
});

describe('/compact', () => {
  it('summarises the older turns and says how many tokens it went from and to', async () => {
    const provider = new ScriptedProvider([
      read(1),
      read(2),
      read(3),
      { text: '## Task\nRead the parts.', usage: { inputTokens: 3_000, outputTokens: 20 } },
    ]);
    const agent = new DefaultAgent(provider);
    for (const n of [1, 2, 3]) await agent.run(`Read part ${n}.`);
    const output = new MemoryOutput();

    await compactCommand.run('', { agent, output, style: createStyle(false) } as unknown as SlashContext);

    const [first, second] = output.text.split('\n');
    expect(first).toBe('Compacting the conversation…');
    expect(second).toMatch(/^⇣ Compacted the conversation: [\d,]+ → [\d,]+ tokens; \d+ earlier messages summarised\.$/);
    expect(agent.metrics.compactions).toBe(1);
    provider.assertComplete();
  });

  it('says there is nothing to compact on a short conversation', async () => {
    const provider = new ScriptedProvider([read(1)]);
    const agent = new DefaultAgent(provider);
    await agent.run('Read part 1.');
    const output = new MemoryOutput();

    await compactCommand.run('', { agent, output, style: createStyle(false) } as unknown as SlashContext);

    expect(output.text.split('\n')[1]).toMatch(
      /^⇣ Nothing to compact: the conversation \([\d,]+ tokens\) has no older steps to summarise\.$/,
    );
    expect(agent.metrics.compactions).toBe(0);
    provider.assertComplete();
  });

  it('shows the error when the compaction fails', async () => {
    const agent = new DefaultAgent(new ScriptedProvider([]), {
      compaction: {
        compactor: {
          compact: async () => {
            throw new Error('disk full');
          },
        },
      },
    });
    const output = new MemoryOutput();

    await compactCommand.run('', { agent, output, style: createStyle(false) } as unknown as SlashContext);

    expect(output.text.split('\n')[1]).toBe(
      '✗ Compaction failed: disk full. The conversation was left as it was (compaction_failed)',
    );
  });
});
