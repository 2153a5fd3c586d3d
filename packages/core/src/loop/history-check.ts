import type { Message, MessagePart } from '@agentloop/spec';
import { AgentloopError, describeThrown } from '@agentloop/spec';

/**
 * Checks, before each request leaves, that the history is one every provider accepts: each tool call
 * answered by exactly one result in the tool message(s) right after it, no result without its call, and
 * every message serialisable. The loop keeps this true by construction; a violation is a bug (in
 * agentloop, or in a memory given to the agent) and is reported as one here, rather than as an API error
 * three layers away. Incremental: messages already checked are not walked again while the history only
 * grows, and each message is serialised once.
 */
export class HistoryCheck {
  #checkedCount = 0;
  #lastChecked: Message | undefined;
  readonly #serialisable = new WeakSet<Message>();

  /** Throws an `invalid_history` AgentloopError that says what is wrong. */
  assertValid(messages: readonly Message[]): void {
    // A memory that rewrote its list (a restore, a compaction) is checked again from the start.
    const rewritten = this.#checkedCount > messages.length || messages[this.#checkedCount - 1] !== this.#lastChecked;
    const from = rewritten ? 0 : this.#checkedCount;
    const problem = findProblem(messages, from, this.#serialisable);
    if (problem) throw invalidHistory(problem);
    this.#checkedCount = messages.length;
    this.#lastChecked = messages.at(-1);
  }
}

function findProblem(messages: readonly Message[], from: number, serialisable: WeakSet<Message>): string | undefined {
  let open = new Map<string, string>();
  for (let index = from; index < messages.length; index++) {
    const message = messages[index] as Message;
    const where = `message ${index + 1} (${message.role})`;
    const unserialisable = checkSerialisable(message, serialisable);
    if (unserialisable) return `${where} cannot be serialised: ${unserialisable}`;
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (!open.delete(part.toolCallId)) {
          return `${where} has a result for tool call "${part.toolCallId}", which no call just before it made`;
        }
      }
      continue;
    }
    if (open.size > 0) return orphaned(open, where);
    if (message.role === 'assistant') {
      open = new Map();
      for (const part of message.content) {
        if (part.type !== 'tool-call') continue;
        if (open.has(part.toolCallId)) return `${where} has two tool calls with the id "${part.toolCallId}"`;
        open.set(part.toolCallId, part.toolName);
      }
    }
  }
  return open.size > 0 ? orphaned(open, 'the end of the history') : undefined;
}

function orphaned(open: ReadonlyMap<string, string>, where: string): string {
  const [id, name] = open.entries().next().value as [string, string];
  return `tool call "${id}" (${name}) has no result before ${where}`;
}

function checkSerialisable(message: Message, serialisable: WeakSet<Message>): string | undefined {
  if (serialisable.has(message)) return undefined;
  // Text and results are strings, always serialisable; what else a part holds (arguments, provider
  // metadata) is serialised to find out. Cheaper than serialising whole messages, and done once each.
  for (const part of message.content as readonly MessagePart[]) {
    if (part.type === 'text' && typeof part.text === 'string') continue;
    if (part.type === 'tool-result' && typeof part.content === 'string') continue;
    if (part.type === 'thinking' && part.providerMetadata === undefined && typeof part.text === 'string') continue;
    try {
      JSON.stringify(part);
    } catch (error) {
      return describeThrown(error);
    }
  }
  serialisable.add(message);
  return undefined;
}

function invalidHistory(problem: string): AgentloopError {
  return new AgentloopError(
    `The conversation history cannot be sent: ${problem}. Every provider would reject it, so the request ` +
      'was not sent. This is a bug in agentloop, or in the memory given to the agent (a restored snapshot?): ' +
      'please report it with this message.',
    { code: 'invalid_history' },
  );
}
