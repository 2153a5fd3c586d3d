import type { AgentloopError, Usage } from '@agentloop/spec';
import type { TaskCompletionPayload } from '@agentloop/tools';
import { describe, expectTypeOf, it } from 'vitest';
import type { AgentEvent } from '../events/index.js';
import type { AgentExit, AgentExitPayloadMap, AgentResult } from '../loop/agent-result.js';
import { ScriptedProvider } from '../testing/index.js';
import { DefaultAgent } from './default-agent.js';

const agent = new DefaultAgent(new ScriptedProvider([]));

describe('agent.on', () => {
  it('types each listener by its event name', () => {
    agent.on('tool-call', (event) => {
      expectTypeOf(event.type).toEqualTypeOf<'tool-call'>();
      expectTypeOf(event.name).toEqualTypeOf<string>();
      expectTypeOf(event.arguments).toEqualTypeOf<unknown>();
      expectTypeOf(event.iteration).toEqualTypeOf<number>();
    });
    // An event does not know its run's output schema: the result is text, or a value of that schema.
    agent.on('task-complete', (event) => {
      expectTypeOf(event.result).toEqualTypeOf<unknown>();
      expectTypeOf(event.artifacts).toEqualTypeOf<string[] | undefined>();
    });
    agent.on('loop-end', (event) => expectTypeOf(event.result).toEqualTypeOf<AgentResult<unknown>>());
  });

  it('gives every per-step event its iteration', () => {
    type StepEventName =
      | 'tool-call'
      | 'tool-result'
      | 'tool-result-error'
      | 'message-content'
      | 'thinking-content'
      | 'usage'
      | 'task-complete'
      | 'question-asked'
      | 'converse'
      | 'protocol-switch';
    expectTypeOf<Extract<AgentEvent, { type: StepEventName }>['iteration']>().toEqualTypeOf<number>();
  });

  it('refuses an unknown event name', () => {
    // @ts-expect-error: not an agent event
    agent.on('tool-called', () => {});
  });
});

describe('agent.stream', () => {
  it('yields the union of events, narrowed by type', async () => {
    for await (const event of agent.stream('hi')) {
      expectTypeOf(event).toEqualTypeOf<AgentEvent>();
      if (event.type === 'message-content') expectTypeOf(event.text).toEqualTypeOf<string>();
      if (event.type === 'tool-result-error') expectTypeOf(event.code).toExtend<string>();
    }
  });
});

describe('AgentResult', () => {
  it('types the payload by exit', async () => {
    const result = await agent.run('hi');
    expectTypeOf(result.usage).toEqualTypeOf<Usage>();
    if (result.exit === 'task_completion') expectTypeOf(result.payload.result).toEqualTypeOf<string>();
    if (result.exit === 'ask_question') expectTypeOf(result.payload.suggestions).toEqualTypeOf<string[] | undefined>();
    if (result.exit === 'converse') expectTypeOf(result.payload.message).toEqualTypeOf<string>();
    // The wrap-up's summary, when the model gave one.
    if (result.exit === 'max_iterations') {
      expectTypeOf(result.payload).toEqualTypeOf<TaskCompletionPayload | undefined>();
    }
  });

  it('carries an error for error and cancelled, and none otherwise', async () => {
    const result = await agent.run('hi');
    if (result.exit === 'error' || result.exit === 'cancelled') {
      expectTypeOf(result.error).toEqualTypeOf<AgentloopError>();
    } else {
      // The field is optional there, so that `result.error` reads on every exit.
      expectTypeOf(result.error).toEqualTypeOf<undefined>();
    }
  });
});

describe('AgentExit', () => {
  it('is the keys of the payload map, so a new exit cannot be added to one and not the other', () => {
    expectTypeOf<AgentExit>().toEqualTypeOf<keyof AgentExitPayloadMap>();
    expectTypeOf<AgentResult['exit']>().toEqualTypeOf<AgentExit>();
    expectTypeOf<AgentExit>().toEqualTypeOf<
      'task_completion' | 'ask_question' | 'converse' | 'max_iterations' | 'cancelled' | 'error'
    >();
  });
});
