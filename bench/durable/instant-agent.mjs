// The agent of the durable-run benchmark, the same in process and in a worker: a model that answers at
// once from the conversation alone (five calls of a tool that does nothing, then task_completion), so
// that what is measured is the loop and, durably, the journal's round trips.

export const TOOL_CALLS = 5;

export class InstantModel {
  specificationVersion = 'v2';
  id = 'instant';
  capabilities = {
    modelId: 'instant',
    nativeTools: true,
    parallelToolCalls: false,
    stopSequences: false,
    reasoning: false,
    contextWindow: 100_000,
  };

  async *stream(request) {
    let done = 0;
    for (let index = request.messages.length - 1; index >= 0; index--) {
      const message = request.messages[index];
      if (message.role === 'user') break;
      if (message.role === 'tool') done++;
    }
    const [toolName, input] =
      done < TOOL_CALLS ? ['noop', { step: done + 1 }] : ['task_completion', { result: 'done' }];
    yield [
      { type: 'tool-call', toolCallId: `call_${done + 1}`, toolName, input: JSON.stringify(input) },
      { type: 'usage', usage: { inputTokens: 100, outputTokens: 10 } },
      { type: 'finish', reason: 'tool-calls' },
    ];
  }
}

export const noop = {
  name: 'noop',
  description: 'Does nothing.',
  parameters: { type: 'object', properties: { step: { type: 'number' } }, required: ['step'] },
  annotations: { readOnly: true, destructive: false, openWorld: false },
  execute: async ({ step }) => `step ${step} done`,
};
