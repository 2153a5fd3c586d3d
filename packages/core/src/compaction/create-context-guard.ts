import type { Memory } from '@agentloop/memory';
import { DefaultTokenCounter } from '@agentloop/memory';
import type { AgentOptions } from '../agent/agent-options.js';
import { AgentUsageError } from '../errors/index.js';
import type { AgentEventBus } from '../events/index.js';
import { DEFAULT_COMPACTION_THRESHOLD } from './compaction-options.js';
import { ContextGuard } from './context-guard.js';
import { SummarizingCompactor } from './summarizing-compactor.js';

/**
 * The ContextGuard of an agent with these options: its token counter, context window, compaction
 * threshold and compactor, checked. Throws an AgentUsageError (`invalid_option`) that names a bad value.
 */
export function createContextGuard(options: AgentOptions, memory: Memory, events: AgentEventBus): ContextGuard {
  const { contextWindow, compaction } = options;
  if (contextWindow !== undefined && !(Number.isInteger(contextWindow) && contextWindow > 0)) {
    throw new AgentUsageError(
      `contextWindow must be a whole number of tokens above 0, got ${JSON.stringify(contextWindow)}.`,
      'invalid_option',
    );
  }
  if (compaction !== undefined && compaction !== false && (typeof compaction !== 'object' || compaction === null)) {
    throw new AgentUsageError(
      `compaction must be false or an object of options ({ threshold, compactor }), got ${JSON.stringify(compaction)}.`,
      'invalid_option',
    );
  }
  const settings = compaction || {};
  const threshold = settings.threshold ?? DEFAULT_COMPACTION_THRESHOLD;
  if (!(typeof threshold === 'number' && threshold > 0 && threshold <= 1)) {
    throw new AgentUsageError(
      `compaction.threshold must be a share of the context window above 0 and at most 1 (0.8 is 80%), got ${JSON.stringify(threshold)}.`,
      'invalid_option',
    );
  }
  if (settings.compactor !== undefined && typeof settings.compactor?.compact !== 'function') {
    throw new AgentUsageError(
      'compaction.compactor must be a Compactor, with a compact(request) method.',
      'invalid_option',
    );
  }
  return new ContextGuard({
    counter: options.tokenCounter ?? new DefaultTokenCounter(),
    memory,
    events,
    // The default is made at the first compaction: most agents never compact.
    compactor: settings.compactor ?? (() => new SummarizingCompactor()),
    automatic: compaction !== false,
    threshold,
    ...(contextWindow === undefined ? {} : { contextWindow }),
  });
}
