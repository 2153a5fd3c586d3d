import type { LLMProvider, Message, ModelChunk, ModelRequest } from '@agentloop/core';

/**
 * The model the example runs on when no real one is configured: it answers from the conversation alone
 * (a worker that resumes a run on another machine must get the same answer), calling `read_notes` for a
 * task that asks to read, `add_note` with the task otherwise, and then `task_completion` with the tool's
 * result.
 */
export class DemoNotesModel implements LLMProvider {
  readonly specificationVersion = 'v2';
  readonly id = 'demo-notes';
  readonly capabilities = {
    modelId: 'demo-notes',
    nativeTools: true,
    parallelToolCalls: false,
    stopSequences: false,
    reasoning: false,
    contextWindow: 32_000,
  };

  async *stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const last = request.messages.at(-1);
    const call = (toolName: string, input: unknown): ModelChunk[] => [
      { type: 'tool-call', toolCallId: `call_${request.messages.length}`, toolName, input: JSON.stringify(input) },
      { type: 'usage', usage: { inputTokens: 50, outputTokens: 10 } },
      { type: 'finish', reason: 'tool-calls' },
    ];
    if (last?.role === 'tool') {
      yield call('task_completion', { result: textOf(last) });
      return;
    }
    const task = last ? textOf(last) : '';
    yield /\bread\b/i.test(task) ? call('read_notes', {}) : call('add_note', { text: task });
  }
}

function textOf(message: Message): string {
  return message.content
    .map((part) => {
      if ('text' in part && typeof part.text === 'string') return part.text;
      if (part.type === 'tool-result')
        return typeof part.content === 'string' ? part.content : JSON.stringify(part.content);
      return '';
    })
    .join('');
}
