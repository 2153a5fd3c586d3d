import type { CompactionRequest } from '@agentloop/memory';
import { DefaultTokenCounter } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { findHistoryProblem, messageText, ProviderError, systemMessage, userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../testing/index.js';
import { SummarizingCompactor } from './summarizing-compactor.js';

const counter = new DefaultTokenCounter({ loadTokenizer: false });
const count = (messages: readonly Message[]) => counter.countMessages(messages, 'scripted-model');

/** A native step: a read_file call and its 3,500-character result (about 1,040 tokens). */
function step(id: string): Message[] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading ${id}.` },
        { type: 'tool-call', toolCallId: id, toolName: 'read_file', arguments: { path: `src/${id}.ts` } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'read_file',
          content: `${id}:${'x'.repeat(3_500)}`,
          isError: false,
        },
      ],
    },
  ];
}

const conversation: Message[] = [
  systemMessage('Use metric units.'),
  userMessage('Fix the failing tests in packages/api.'),
  ...['s1', 's2', 's3', 's4', 's5', 's6'].flatMap(step),
];

function request(
  provider: ScriptedProvider,
  targetTokens = 3_000,
  signal = new AbortController().signal,
): CompactionRequest {
  return {
    messages: conversation,
    targetTokens,
    modelId: 'scripted-model',
    counter,
    provider,
    reason: 'threshold',
    signal,
  };
}

const SUMMARY = '## Task\nFix the failing tests in packages/api.\n## State of the work\nRead s1 to s4.';

describe('SummarizingCompactor', () => {
  it('keeps 40% of the target for the recent steps by default (recentShare 0.4)', async () => {
    const twoSteps = count(conversation.slice(-4));
    // The smallest target whose 40% holds the last two steps, and one a few tokens below it.
    const enough = Math.ceil(twoSteps / 0.4);
    const recentKept = async (targetTokens: number) => {
      const provider = new ScriptedProvider([{ text: SUMMARY }]);
      return (await new SummarizingCompactor().compact(request(provider, targetTokens))).kept;
    };
    expect(await recentKept(enough)).toMatchObject({ recentMessages: 4 });
    expect(await recentKept(enough - 5)).toMatchObject({ recentMessages: 2 });
  });

  it('replaces the older steps by a summary, keeping the instructions, the task and the recent steps whole', async () => {
    const provider = new ScriptedProvider([{ text: SUMMARY, usage: { inputTokens: 5_000, outputTokens: 40 } }]);
    const result = await new SummarizingCompactor().compact(request(provider));

    // 40% of 3,000 tokens keeps the last step.
    expect(result.messages.slice(0, 2)).toStrictEqual(conversation.slice(0, 2));
    expect(result.messages.slice(3)).toStrictEqual(conversation.slice(-2));
    expect(messageText(result.messages[2] as Message)).toBe(
      `<conversation_summary>\nThe conversation was compacted to fit the context window: 10 earlier messages were replaced by this summary. The user's first message is above it; the most recent steps follow it.\n\n${SUMMARY}\n</conversation_summary>`,
    );
    expect(result).toMatchObject({
      strategy: 'summary',
      kept: { systemMessages: 1, firstUserMessage: true, recentMessages: 2 },
      summarizedMessages: 10,
      droppedMessages: 0,
      summary: SUMMARY,
      usage: { inputTokens: 5_000, outputTokens: 40 },
    });
    expect(findHistoryProblem(result.messages)).toBeUndefined();
    expect(count(result.messages)).toBeLessThanOrEqual(3_000);
    provider.assertComplete();
  });

  it('asks the model with the compaction prompt and a transcript of the older steps, without tools', async () => {
    const provider = new ScriptedProvider([{ text: SUMMARY }]);
    await new SummarizingCompactor().compact(request(provider));
    const sent = provider.request(0);

    expect(sent.systemPrompt).toContain('You compact the conversation of an autonomous agent');
    expect(sent.tools).toEqual([]);
    expect(sent.toolChoice).toBe('none');
    expect(sent.settings).toEqual({ maxTokens: 750 });
    const text = messageText(sent.messages[0] as Message);
    expect(text).toContain('[assistant called read_file] {"path":"src/s1.ts"}');
    expect(text).toContain('[read_file result]\ns5:');
    // The task and the recent step stay in the conversation: they are not summarised.
    expect(text).not.toContain('Fix the failing tests');
    expect(text).not.toContain('s6:');
  });

  it('summarises through the provider it was given, a cheaper one, instead of the agent’s', async () => {
    const agentProvider = new ScriptedProvider([]);
    const cheap = new ScriptedProvider([{ text: SUMMARY }], { capabilities: { modelId: 'cheap-model' } });
    const result = await new SummarizingCompactor({ provider: cheap }).compact(request(agentProvider));

    expect(result.strategy).toBe('summary');
    expect(cheap.requests).toHaveLength(1);
    expect(agentProvider.requests).toHaveLength(0);
  });

  it('reports the summariser’s price with its usage', async () => {
    const pricing = { inputUsdPerMillion: 1, outputUsdPerMillion: 5 };
    const provider = new ScriptedProvider([{ text: SUMMARY }], { capabilities: { pricing } });

    expect((await new SummarizingCompactor().compact(request(provider))).pricing).toEqual(pricing);
  });

  it('drops the middle instead when the summarising call fails, and says why', async () => {
    const provider = new ScriptedProvider([
      { error: new ProviderError('Overloaded.', { code: 'overloaded', provider: 'scripted' }) },
    ]);
    const result = await new SummarizingCompactor().compact(request(provider));

    expect(result.strategy).toBe('drop-middle');
    expect(result.fallbackReason).toBe('the summarising call failed: Overloaded.');
    expect(findHistoryProblem(result.messages)).toBeUndefined();
    expect(count(result.messages)).toBeLessThanOrEqual(3_000);
  });

  it('drops the middle instead when the summary would not fit, keeping the summary’s usage', async () => {
    const provider = new ScriptedProvider([
      { text: 'y'.repeat(20_000), usage: { inputTokens: 4_000, outputTokens: 5_700 } },
    ]);
    const result = await new SummarizingCompactor().compact(request(provider));

    expect(result.strategy).toBe('drop-middle');
    expect(result.fallbackReason).toMatch(/^the summary did not fit: \d+ tokens for a target of 3000$/);
    expect(result.usage).toMatchObject({ inputTokens: 4_000, outputTokens: 5_700 });
  });

  it('keeps a summary over the target when it was asked for by hand and still makes the conversation smaller', async () => {
    const provider = new ScriptedProvider([{ text: SUMMARY }, { text: SUMMARY }]);
    const manual = await new SummarizingCompactor().compact({ ...request(provider, 100), reason: 'manual' });
    const automatic = await new SummarizingCompactor().compact(request(provider, 100));

    expect(manual.strategy).toBe('summary');
    expect(count(manual.messages)).toBeGreaterThan(100);
    expect(count(manual.messages)).toBeLessThan(count(conversation));
    expect(automatic.strategy).toBe('drop-middle');
  });

  it('drops the middle instead when the summary is empty', async () => {
    const provider = new ScriptedProvider([{ text: '  ' }]);

    expect((await new SummarizingCompactor().compact(request(provider))).fallbackReason).toBe('the summary was empty');
  });

  it('makes no call when there is nothing older than the recent steps', async () => {
    const provider = new ScriptedProvider([]);
    const result = await new SummarizingCompactor().compact({
      ...request(provider),
      messages: conversation.slice(0, 4),
    });

    expect(result.fallbackReason).toBe('nothing older than the recent steps to summarise');
    expect(result.messages).toStrictEqual(conversation.slice(0, 4));
  });

  it('passes a cancel on rather than falling back', async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider([{ hang: true }]);
    const compaction = new SummarizingCompactor().compact(request(provider, 3_000, controller.signal));
    controller.abort('stop');

    await expect(compaction).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('refuses options it cannot use', () => {
    expect(() => new SummarizingCompactor({ maxSummaryTokens: 0 })).toThrow('maxSummaryTokens must be');
    expect(() => new SummarizingCompactor({ recentShare: 2 })).toThrow('recentShare must be between 0 and 1');
  });
});
