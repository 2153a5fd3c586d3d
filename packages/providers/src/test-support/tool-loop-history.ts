import type { Message } from '@agentloop/spec';

/** A tool loop's conversation: the task, then per step the model's text with one `add` call, and its result. */
export function toolLoopHistory(steps: number): Message[] {
  const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Add the numbers' }] }];
  for (let n = 0; n < steps; n++) {
    history.push(
      {
        role: 'assistant',
        content: [
          { type: 'text', text: `Step ${n}` },
          { type: 'tool-call', toolCallId: `call_${n}`, toolName: 'add', arguments: { a: n, b: 1 } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: `call_${n}`, toolName: 'add', content: String(n + 1), isError: false },
        ],
      },
    );
  }
  return history;
}
