import { describe, expect, it } from 'vitest';
import { acpSessionOptions, configuredModels } from './acp-command.js';

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

describe('acpSessionOptions', () => {
  const store = { id: 'the store' } as never;
  const saved = { config: { plugins: [], providers: {}, files: [] } };
  const off = { config: { plugins: [], providers: {}, files: [], sessions: { store: 'off' as const } } };

  it('keeps a new session in the command’s store, under the session’s id', () => {
    expect(acpSessionOptions(store, { sessionId: 'sess_1', resume: false }, saved)).toEqual({ store, id: 'sess_1' });
  });

  it('keeps nothing for a new session whose directory’s configuration says store = "off"', () => {
    expect(acpSessionOptions(store, { sessionId: 'sess_1', resume: false }, off)).toBeUndefined();
  });

  it('resumes a session the editor loads from the store, whatever its directory says', () => {
    expect(acpSessionOptions(store, { sessionId: 'sess_1', resume: true }, off)).toEqual({ store, id: 'sess_1' });
  });

  it('keeps nothing without a store', () => {
    expect(acpSessionOptions(undefined, { sessionId: 'sess_1', resume: true }, saved)).toBeUndefined();
  });
});
