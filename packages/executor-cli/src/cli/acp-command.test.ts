import { describe, expect, it } from 'vitest';
import { configuredModels } from './acp-command.js';

describe('configuredModels', () => {
  const provider = { name: 'openai', type: 'openai', model: 'gpt-5' } as const;
  const config = (providers: Record<string, { model?: string }>) => ({ providers }) as never;

  it('offers the model in use and each provider table’s model, as provider:model', async () => {
    const switched: string[] = [];
    const models = configuredModels(
      {
        provider,
        config: config({ anthropic: { model: 'claude-sonnet-4-6' }, local: { model: 'llama3.2' }, bare: {} }),
      },
      {
        switchModel: async (reference) => {
          switched.push(reference);
          return { provider: { id: reference } as never, label: reference };
        },
      },
    );
    expect(models.current).toBe('openai:gpt-5');
    expect(models.available).toEqual([
      { id: 'openai:gpt-5', name: 'openai:gpt-5' },
      { id: 'anthropic:claude-sonnet-4-6', name: 'anthropic:claude-sonnet-4-6' },
      { id: 'local:llama3.2', name: 'local:llama3.2' },
    ]);
    expect(await models.select('local:llama3.2')).toEqual({ id: 'local:llama3.2' });
    expect(switched).toEqual(['local:llama3.2']);
  });

  it('lists the model in use once, when a table names it too', () => {
    const models = configuredModels(
      { provider, config: config({ openai: { model: 'gpt-5' } }) },
      { switchModel: async () => ({}) as never },
    );
    expect(models.available).toEqual([{ id: 'openai:gpt-5', name: 'openai:gpt-5' }]);
  });
});
