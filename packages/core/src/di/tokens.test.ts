import type { Compactor, SessionStore, StoredSession } from '@agentloop/memory';
import { ConversationMemory } from '@agentloop/memory';
import { PromptBuilder } from '@agentloop/prompts';
import type { Message } from '@agentloop/spec';
import { ToolRegistry } from '@agentloop/tools';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { AgentOptions } from '../agent/agent-options.js';
import { MemoryJournal, ScriptedProvider, type ScriptStep } from '../testing/index.js';
import { createContainer, createSessionContainer, resolveAgent } from './create-container.js';
import { definePlugin } from './plugin.js';
import type { ServiceToken } from './service-token.js';
import { TOKENS } from './tokens.js';

const converse: ScriptStep = { toolCalls: [{ name: 'converse', arguments: { message: 'Hello.' } }] };

/** A container whose one plugin registers `service` under `token`. */
function containerReplacing<Service>(
  token: ServiceToken<Service>,
  service: Service,
  options: { steps?: ScriptStep[]; agentOptions?: AgentOptions } = {},
) {
  const provider = new ScriptedProvider(options.steps ?? []);
  const plugin = definePlugin({
    name: 'replacement',
    register: (container) => container.register(token, () => service),
  });
  return createContainer({
    provider,
    plugins: [plugin],
    ...(options.agentOptions ? { agentOptions: options.agentOptions } : {}),
  });
}

describe("a plugin's replacement is the one the agent uses", () => {
  it('TOKENS.Provider', async () => {
    const provider = new ScriptedProvider([converse]);
    const plugin = definePlugin({
      name: 'provider',
      register: (container) => container.register(TOKENS.Provider, () => provider),
    });
    const agent = resolveAgent(await createContainer({ plugins: [plugin] }));
    expect((await agent.run('Hi')).exit).toBe('converse');
    expect(provider.requests).toHaveLength(1);
  });

  it('TOKENS.ToolRegistry', async () => {
    const registry = new ToolRegistry();
    const agent = resolveAgent(await containerReplacing(TOKENS.ToolRegistry, registry));
    expect(agent.tools).toBe(registry);
  });

  it('TOKENS.PromptBuilder', async () => {
    const prompts = new PromptBuilder({ systemPrompt: 'From the plugin.' });
    const container = await containerReplacing(TOKENS.PromptBuilder, prompts, { steps: [converse] });
    const agent = resolveAgent(container);
    await agent.run('Hi');
    expect(agent.prompts).toBe(prompts);
    expect((container.resolve(TOKENS.Provider) as ScriptedProvider).requests[0]?.systemPrompt).toContain(
      'From the plugin.',
    );
  });

  it('TOKENS.Compactor', async () => {
    const reasons: string[] = [];
    const keepFirst: Compactor = {
      async compact(request) {
        reasons.push(request.reason);
        return {
          messages: request.messages.slice(0, 1),
          strategy: 'keep-first',
          kept: { systemMessages: 0, firstUserMessage: true, recentMessages: 0 },
          summarizedMessages: 0,
          droppedMessages: request.messages.length - 1,
          droppedToolResults: 0,
        };
      },
    };
    const agent = resolveAgent(await containerReplacing(TOKENS.Compactor, keepFirst, { steps: [converse] }));
    await agent.run('Hi');
    const report = await agent.compact();
    expect(reasons).toEqual(['manual']);
    expect(report).toMatchObject({ strategy: 'keep-first', messagesAfter: 1 });
  });

  it('TOKENS.Compactor, unless the options turn compaction off', async () => {
    const never: Compactor = {
      compact: () => Promise.reject(new Error('the compactor of a plugin ran')),
    };
    const container = await containerReplacing(TOKENS.Compactor, never, { agentOptions: { compaction: false } });
    expect(container.resolve(TOKENS.AgentOptions).compaction).toBe(false);
  });

  it('TOKENS.SessionStore', async () => {
    const saved: Message[] = [];
    const store = sessionStoreSaving(saved);
    const agent = resolveAgent(await containerReplacing(TOKENS.SessionStore, store, { steps: [converse] }));
    await agent.run('Hi');
    expect(saved.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('TOKENS.Tracer', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('plugin');
    const agent = resolveAgent(
      await containerReplacing(TOKENS.Tracer, tracer, {
        steps: [converse],
        agentOptions: { tracing: { agentName: 'helper' } },
      }),
    );
    await agent.run('Hi');
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain('invoke_agent helper');
  });

  it('TOKENS.Tracer, unless the options turn tracing off', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('plugin');
    const agent = resolveAgent(
      await containerReplacing(TOKENS.Tracer, tracer, { steps: [converse], agentOptions: { tracing: false } }),
    );
    await agent.run('Hi');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('TOKENS.Journal', async () => {
    const journal = new MemoryJournal();
    const agent = resolveAgent(await containerReplacing(TOKENS.Journal, journal, { steps: [converse] }));
    await agent.run('Hi');
    expect(journal.ran).toEqual(['model:1']);
  });

  it("TOKENS.Journal, unless the options name the agent's own", async () => {
    const registered = new MemoryJournal();
    const own = new MemoryJournal();
    const agent = resolveAgent(
      await containerReplacing(TOKENS.Journal, registered, { steps: [converse], agentOptions: { journal: own } }),
    );
    await agent.run('Hi');
    expect(registered.ran).toEqual([]);
    expect(own.ran).toEqual(['model:1']);
  });

  it('TOKENS.Memory, one per session when the factory makes it', async () => {
    const plugin = definePlugin({
      name: 'memory',
      register: (container) => container.register(TOKENS.Memory, () => new ConversationMemory()),
    });
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins: [plugin] });
    const agent = resolveAgent(container);
    expect(agent.memory).toBe(container.resolve(TOKENS.Memory));
    expect(resolveAgent(createSessionContainer(container)).memory).not.toBe(agent.memory);
  });
});

/** A SessionStore that holds one empty session and keeps what is appended to it in `saved`. */
function sessionStoreSaving(saved: Message[]): SessionStore {
  const now = new Date(0);
  const stored = (): StoredSession => ({
    info: {
      id: 'session',
      title: undefined,
      model: undefined,
      workspace: undefined,
      createdAt: now,
      updatedAt: now,
      turnCount: 0,
      messageCount: 0,
      tokenCount: 0,
    },
    messages: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    pendingQuestion: undefined,
  });
  const unused = () => Promise.reject(new Error('not used by a run'));
  return {
    create: async () => stored().info,
    open: async () => stored(),
    append: async (_, message) => void saved.push(message),
    replace: unused,
    commit: async () => {},
    release: async () => {},
    load: async () => stored(),
    list: async () => [],
    delete: unused,
    fork: unused,
    close: async () => {},
  };
}
