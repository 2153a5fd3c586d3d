import type { Message } from '@agentloop/spec';

/**
 * What was converted of one conversation: the messages it came from (with their part counts, since a message
 * may gain parts) and, per message, a mark of how far the output had got after it.
 */
export interface ConvertedConversation<State> {
  sources: Message[];
  parts: number[];
  state: State;
}

/**
 * Converts a conversation that grows at its end, redoing only what changed since the last call.
 *
 * What the profile showed: an agent sends the whole conversation every step, and walking all of it again
 * (even with each message's conversion cached) made request building grow with the history: O(n) per
 * step, O(n^2) per run. Here each conversation (keyed by its first message, weakly) keeps what it was
 * converted to; a call finds the prefix it shares with the last one (identity and part count of each
 * message: messages do not change once in a conversation, they may only gain parts), lets `truncate`
 * cut the output back to that prefix, and `extend` converts the rest. A conversation that changed
 * anywhere (compaction, a new run on shared messages) shares a shorter prefix and is redone from there.
 *
 * The conversion is held weakly: it is a second copy of the conversation, and an idle agent (a session
 * waiting for its user) would otherwise keep it for as long as it keeps its messages. Once the garbage
 * collector has dropped it (a major collection, so not between every two steps), the next call converts
 * the conversation whole, which costs what the first call of a run costs.
 */
export class ConversationCache<State> {
  readonly #conversions = new WeakMap<Message, WeakRef<ConvertedConversation<State>>>();

  constructor(
    private readonly create: () => State,
    /** Cuts `state` back to its output for the first `keep` messages; returns the count it kept (at most keep). */
    private readonly truncate: (state: State, keep: number) => number,
    /** Converts `history[from..]` onto `state` (whose output holds the first `from` messages). */
    private readonly extend: (state: State, history: readonly Message[], from: number) => void,
  ) {}

  /** The state after converting `history`; the caller copies what it hands out, since the state is reused. */
  convert(history: readonly Message[]): State {
    const first = history[0];
    if (first === undefined) {
      const state = this.create();
      this.extend(state, history, 0);
      return state;
    }
    let conversion = this.#conversions.get(first)?.deref();
    if (conversion === undefined) {
      conversion = { sources: [], parts: [], state: this.create() };
      this.#conversions.set(first, new WeakRef(conversion));
    }
    const { sources, parts } = conversion;
    const shared = Math.min(sources.length, history.length);
    let prefix = 0;
    while (
      prefix < shared &&
      sources[prefix] === history[prefix] &&
      parts[prefix] === (history[prefix] as Message).content.length
    )
      prefix++;
    const from = this.truncate(conversion.state, prefix);
    sources.length = from;
    parts.length = from;
    for (let index = from; index < history.length; index++) {
      const message = history[index] as Message;
      sources.push(message);
      parts.push(message.content.length);
    }
    this.extend(conversion.state, history, from);
    return conversion.state;
  }
}
