import type { Message, ToolResultPart } from '@agentloop/spec';
import { AgentloopError, findHistoryProblem, toolCallsOf, userMessage } from '@agentloop/spec';
import { planCompaction, stepBoundaries } from './compaction-plan.js';
import type { CompactionRequest, CompactionResult, Compactor } from './compactor.js';

/** Options of a DropMiddleCompactor. */
export interface DropMiddleCompactorOptions {
  /**
   * The share of the target kept for the most recent steps, which stay whole (at least the last step,
   * whatever its size). Default 0.4.
   */
  recentShare?: number;
}

/** The text an emptied tool result keeps. */
export function droppedResultText(characters: number): string {
  return `[This result was dropped to fit the context window (${characters.toLocaleString('en-US')} characters). Run the tool again if you need it.]`;
}

/** The XML protocol's results come back as a user message of `<tool_result>` blocks. */
const XML_RESULT_PREFIX = '<tool_result';

/**
 * Compacts without a model: keeps the system messages, the first user message and the most recent steps,
 * and empties the older tool results, oldest first, until the conversation fits; when that is not enough
 * it drops whole older steps, oldest first, and puts a marker in their place that says what was dropped.
 * As a last resort it empties the results of recent steps too, all but the last step's. The fallback of
 * the summarising compactor, and a compactor of its own for an app that wants no summarising call.
 */
export class DropMiddleCompactor implements Compactor {
  readonly #recentShare: number;

  constructor(options: DropMiddleCompactorOptions = {}) {
    const share = options.recentShare ?? 0.4;
    if (!(share >= 0 && share <= 1)) {
      throw new AgentloopError(`recentShare must be between 0 and 1, got ${share}.`, { code: 'invalid_option' });
    }
    this.#recentShare = share;
  }

  async compact(request: CompactionRequest): Promise<CompactionResult> {
    const count = (messages: readonly Message[]) => request.counter.countMessages(messages, request.modelId);
    const plan = planCompaction(request.messages, {
      recentTokens: Math.floor(request.targetTokens * this.#recentShare),
      count,
    });
    const target = request.targetTokens;
    const fixed = count(plan.head);
    // Steps of the middle, oldest first, each whole: a call and its results are never apart.
    const steps = splitSteps(plan.middle);
    let recent = plan.recent;
    let tokens = fixed + steps.reduce((sum, step) => sum + count(step), 0) + count(recent);
    let droppedToolResults = 0;

    // 1. Older tool results, oldest first: their calls stay, so the model still sees what it did.
    for (let index = 0; index < steps.length && tokens > target; index++) {
      const before = count(steps[index] as Message[]);
      const emptied = emptyResults(steps[index] as Message[]);
      droppedToolResults += emptied.count;
      steps[index] = emptied.messages;
      tokens += count(emptied.messages) - before;
    }
    // 2. Whole older steps, oldest first, with a marker in their place.
    let dropped: Message[] = [];
    let markerTokens = 0;
    while (steps.length > 0 && tokens > target) {
      const step = steps.shift() as Message[];
      tokens -= count(step);
      dropped = dropped.concat(step);
      tokens -= markerTokens;
      markerTokens = count([droppedMarker(dropped)]);
      tokens += markerTokens;
    }
    // 3. The recent steps' results, all but the last step's: the conversation must fit to be sent at all.
    if (tokens > target) {
      const recentSteps = splitSteps(recent);
      for (let index = 0; index < recentSteps.length - 1 && tokens > target; index++) {
        const before = count(recentSteps[index] as Message[]);
        const emptied = emptyResults(recentSteps[index] as Message[]);
        droppedToolResults += emptied.count;
        recentSteps[index] = emptied.messages;
        tokens += count(emptied.messages) - before;
      }
      recent = recentSteps.flat();
    }

    const messages = [
      ...plan.head,
      ...(dropped.length > 0 ? [droppedMarker(dropped)] : []),
      ...steps.flat(),
      ...recent,
    ];
    assertSound(messages, 'DropMiddleCompactor');
    return {
      messages,
      strategy: 'drop-middle',
      kept: {
        systemMessages: plan.systemMessages,
        firstUserMessage: plan.firstUserMessage,
        recentMessages: plan.recent.length,
      },
      summarizedMessages: 0,
      droppedMessages: dropped.length,
      droppedToolResults,
    };
  }
}

/** Splits messages that start on a step boundary into their steps, in order. */
export function splitSteps(messages: readonly Message[]): Message[][] {
  const boundaries = stepBoundaries(messages);
  return boundaries.map((start, index) => messages.slice(start, boundaries[index + 1] ?? messages.length));
}

/** The step with its tool results emptied; results already emptied are left as they are. */
function emptyResults(step: readonly Message[]): { messages: Message[]; count: number } {
  let count = 0;
  const messages = step.map((message, index): Message => {
    if (message.role === 'tool') {
      let changed = false;
      const content = message.content.map((part): ToolResultPart => {
        if (isDropped(part.content)) return part;
        changed = true;
        count++;
        return { ...part, content: droppedResultText(part.content.length) };
      });
      return changed ? { role: 'tool', content } : message;
    }
    // XML: the user message of <tool_result> blocks right after the call.
    const text =
      message.role === 'user' && index > 0 && message.content.length === 1 ? message.content[0]?.text : undefined;
    if (text?.startsWith(XML_RESULT_PREFIX) && !isDropped(text)) {
      count++;
      return userMessage(droppedResultText(text.length));
    }
    return message;
  });
  return { messages, count };
}

function isDropped(text: string): boolean {
  return text.startsWith('[This result was dropped to fit the context window');
}

/** The marker put where older steps were dropped: how many messages, which tool calls. */
export function droppedMarker(dropped: readonly Message[]): Message {
  const calls = new Map<string, number>();
  for (const message of dropped) {
    for (const call of toolCallsOf(message)) calls.set(call.toolName, (calls.get(call.toolName) ?? 0) + 1);
  }
  const callCount = [...calls.values()].reduce((sum, n) => sum + n, 0);
  const names = [...calls].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
  const what =
    callCount > 0 ? `, with ${callCount} tool call${callCount === 1 ? '' : 's'} (${names}) and their results` : '';
  return userMessage(
    `[Compaction: ${dropped.length} earlier message${dropped.length === 1 ? ' was' : 's were'} dropped here to fit the context window${what}. ` +
      'What they said is gone: look again, or ask the user, if you need it.]',
  );
}

/** Throws when a compactor built a history no provider accepts: a bug, reported as one. */
export function assertSound(messages: readonly Message[], compactor: string): void {
  const problem = findHistoryProblem(messages);
  if (problem) {
    throw new AgentloopError(
      `${compactor} built a history no provider accepts: ${problem}. This is a bug; please report it.`,
      {
        code: 'invalid_history',
      },
    );
  }
}
