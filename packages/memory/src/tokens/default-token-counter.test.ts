import type { AssistantMessage, Message, ToolDefinition, ToolMessage, Usage } from '@agentloop/spec';
import { AgentloopError, emptyUsage, userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { DefaultTokenCounter } from './default-token-counter.js';
import { loadTokenizer } from './tokenizer.js';

const usage = (inputTokens: number, outputTokens: number): Usage => ({ ...emptyUsage(), inputTokens, outputTokens });
/** A text of `n` characters. */
const chars = (n: number) => 'x'.repeat(n);

const call: AssistantMessage = {
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', arguments: { path: 'a.ts' } }],
};
const result: ToolMessage = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', content: chars(70), isError: false }],
};
const request = (messages: readonly Message[], extra: { systemPrompt?: string; tools?: ToolDefinition[] } = {}) => ({
  modelId: 'claude-sonnet-4-5',
  systemPrompt: extra.systemPrompt ?? '',
  messages,
  ...(extra.tools ? { tools: extra.tools } : {}),
});

describe('DefaultTokenCounter', () => {
  describe('the estimate', () => {
    it('counts 3.5 characters a token, rounded up', () => {
      const counter = new DefaultTokenCounter();

      expect(counter.countText(chars(35), 'claude-sonnet-4-5')).toBe(10);
      expect(counter.countText(chars(36), 'claude-sonnet-4-5')).toBe(11);
      expect(counter.countText('', 'claude-sonnet-4-5')).toBe(0);
    });

    it('adds the framing of each message, call and result to their text', () => {
      const counter = new DefaultTokenCounter();

      // 4 for the message and 10 for 35 characters.
      expect(counter.countMessages([userMessage(chars(35))], 'any')).toBe(14);
      // 4 + 12 framing + "read" (2) + {"path":"a.ts"} (15 characters: 5).
      expect(counter.countMessages([call], 'any')).toBe(23);
      // 4 + 8 framing + 70 characters (20).
      expect(counter.countMessages([result], 'any')).toBe(32);
    });

    it('takes the number of characters a token from its options', () => {
      expect(new DefaultTokenCounter({ charsPerToken: 4 }).countText(chars(40), 'any')).toBe(10);
    });

    it('refuses a number of characters a token that is not positive', () => {
      for (const charsPerToken of [0, -1, Number.NaN]) {
        const error = (() => {
          try {
            new DefaultTokenCounter({ charsPerToken });
          } catch (thrown) {
            return thrown;
          }
        })();
        expect(AgentloopError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ code: 'invalid_option', message: expect.stringContaining('charsPerToken') });
      }
    });

    it('counts the system prompt and the tool definitions of a request with no report', () => {
      const tools: ToolDefinition[] = [{ name: 'read', description: chars(35), inputSchema: { type: 'object' } }];
      const counter = new DefaultTokenCounter();

      // system prompt 70 characters (20) + the provider's tool-use prompt (300) + tool: 10 framing + name (2)
      // + description (10) + schema {"type":"object"} (17 characters: 5) + one message (14).
      expect(counter.countRequest(request([userMessage(chars(35))], { systemPrompt: chars(70), tools }))).toBe(361);
      expect(counter.countRequest(request([userMessage(chars(35))], { systemPrompt: chars(70) }))).toBe(34);
    });
  });

  describe('the reported usage', () => {
    const sent = [userMessage('Read a.ts')];
    const history = [...sent, call];

    it('is the truth for the history it covered', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(1_200, 40), sent, call);

      expect(counter.countRequest(request(history, { systemPrompt: chars(7_000) }))).toBe(1_240);
    });

    it('has only what was added after it estimated', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(1_200, 40), sent, call);

      expect(counter.countRequest(request([...history, result]))).toBe(1_240 + 32);
    });

    it('covers a history whose array is new but whose messages are the same objects', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(500, 10), [...sent], call);

      expect(counter.countRequest(request([...history, result]))).toBe(510 + 32);
    });

    it('no longer counts for a history that was rewritten since', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(1_200, 40), sent, call);
      const rewritten = [userMessage('Read a.ts'), call, result];

      expect(counter.countRequest(request(rewritten))).toBe(counter.countMessages(rewritten, 'any'));
    });

    it('covers the messages sent when no answer was kept', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(900, 0), history);

      expect(counter.countRequest(request([...history, result]))).toBe(900 + 32);
    });

    it('does not cover a request of the system prompt and tools alone', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(900, 0), history);

      expect(counter.countRequest(request([], { systemPrompt: chars(35) }))).toBe(10);
    });

    it('no longer counts once the history is shorter than the report', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(1_200, 40), [...history, result]);

      expect(counter.countRequest(request(history))).toBe(counter.countMessages(history, 'any'));
    });

    it('is not replaced by a call that reported no input tokens', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(0, 40), sent, call);
      expect(counter.countRequest(request(history))).toBe(counter.countMessages(history, 'any'));

      counter.recordUsage(usage(1_200, 40), sent, call);
      counter.recordUsage(usage(0, 0), [...history, result]);
      expect(counter.countRequest(request([...history, result]))).toBe(1_240 + 32);
    });

    it('is replaced by the next report', () => {
      const counter = new DefaultTokenCounter();
      counter.recordUsage(usage(1_200, 40), sent, call);
      counter.recordUsage(usage(1_300, 20), [...history, result]);

      expect(counter.countRequest(request([...history, result]))).toBe(1_320);
    });
  });

  describe('without a reported usage', () => {
    it('counts only the messages a history gained since the last count, and the same total as a full count', async () => {
      const counted: string[] = [];
      const counter = new DefaultTokenCounter({
        loadTokenizer: async () => ({
          countTokens: (text) => {
            counted.push(text);
            return text.length;
          },
        }),
      });
      await counter.prepare('gpt-4o');
      const first = [userMessage('one'), call];
      counter.countRequest({ ...request(first), modelId: 'gpt-4o' });
      counted.length = 0;
      const grown = [...first, result, userMessage('two')];

      const tokens = counter.countRequest({ ...request(grown), modelId: 'gpt-4o' });

      expect(counted).toEqual(['', chars(70), 'two']);
      expect(tokens).toBe(counter.countMessages(grown, 'gpt-4o'));
    });

    it('counts afresh a history rewritten since the last count', () => {
      const counter = new DefaultTokenCounter();
      counter.countRequest(request([userMessage(chars(35)), call, result]));
      const rewritten = [userMessage(chars(70)), call, result];

      expect(counter.countRequest(request(rewritten))).toBe(counter.countMessages(rewritten, 'any'));
    });

    it('counts afresh a history that is shorter than the last one counted', () => {
      const counter = new DefaultTokenCounter();
      const history = [userMessage(chars(35)), call, result];
      counter.countRequest(request(history));

      expect(counter.countRequest(request(history.slice(0, 2)))).toBe(
        counter.countMessages(history.slice(0, 2), 'any'),
      );
    });
  });

  describe('the tokenizer', () => {
    it('is not loaded until prepare, and counts exactly after it', async () => {
      let loads = 0;
      const counter = new DefaultTokenCounter({
        loadTokenizer: async () => {
          loads++;
          return { countTokens: (text) => text.split(' ').length };
        },
      });
      expect(counter.countText('one two three', 'gpt-4o')).toBe(4);
      expect(loads).toBe(0);

      await counter.prepare('gpt-4o');
      await counter.prepare('gpt-4o-mini');

      expect(counter.countText('one two three', 'gpt-4o')).toBe(3);
      expect(counter.countText('one two three', 'gpt-4o-mini')).toBe(3);
      expect(loads).toBe(1);
    });

    it('leaves the estimate in place when loading fails', async () => {
      const counter = new DefaultTokenCounter({
        loadTokenizer: async () => {
          throw new Error('no module');
        },
      });
      await expect(counter.prepare('gpt-4o')).resolves.toBeUndefined();

      expect(counter.countText(chars(35), 'gpt-4o')).toBe(10);
    });

    it('is never loaded with loadTokenizer: false', async () => {
      const counter = new DefaultTokenCounter({ loadTokenizer: false });
      await counter.prepare('gpt-4o');

      expect(counter.countText('The quick brown fox', 'gpt-4o')).toBe(6);
    });

    it('is gpt-tokenizer for OpenAI models by default, and none for Claude', async () => {
      const counter = new DefaultTokenCounter();
      await counter.prepare('gpt-4o-2024-08-06');
      await counter.prepare('claude-sonnet-4-5');

      expect(counter.countText('The quick brown fox jumps over the lazy dog.', 'gpt-4o-2024-08-06')).toBe(10);
      expect(counter.countText('The quick brown fox jumps over the lazy dog.', 'claude-sonnet-4-5')).toBe(13);
    });
  });
});

describe('loadTokenizer', () => {
  it('gives o200k_base to gpt-4o and later, cl100k_base to gpt-4, and nothing to other vendors', async () => {
    // The Japanese line is 7 tokens in o200k_base and 10 in cl100k_base.
    const japanese = 'こんにちは世界、お元気ですか';
    expect((await loadTokenizer('gpt-5-mini'))?.countTokens(japanese)).toBe(7);
    expect((await loadTokenizer('openai/o3'))?.countTokens(japanese)).toBe(7);
    expect((await loadTokenizer('gpt-4-0613'))?.countTokens(japanese)).toBe(10);
    expect(await loadTokenizer('claude-opus-4-5')).toBeUndefined();
    expect(await loadTokenizer('llama3.1:8b')).toBeUndefined();
  });

  it('reads special tokens in a message as plain text, as the API does', async () => {
    const tokenizer = await loadTokenizer('gpt-4o');

    expect(tokenizer?.countTokens('hi <|endoftext|> there')).toBeGreaterThan(3);
  });
});
