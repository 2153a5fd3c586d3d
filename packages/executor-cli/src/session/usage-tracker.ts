import type { Agent, Usage } from '@agentloop/core';
import type { StepUsage, UsageStats } from '../render/index.js';
import { LOOP_CONTROL_TOOLS } from '../render/index.js';

/**
 * Adds up what a session uses, from the agent's events: tokens per model call (an MCP server's sampling
 * requests included) and in total, tool calls,
 * and time spent running; with the agent's own metrics (context, model and tool time, compactions, cost).
 * `/usage` shows it.
 */
export class UsageTracker {
  #steps: StepUsage[] = [];
  #total: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  #turns = 0;
  #toolCalls = 0;
  #toolErrors = 0;
  #agentMs = 0;
  #started: number;
  readonly #stop: () => void;

  readonly #agent: Agent;

  constructor(
    agent: Agent,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#agent = agent;
    this.#started = now();
    this.#stop = agent.onAny((event) => {
      switch (event.type) {
        case 'loop-start':
          this.#turns++;
          break;
        case 'usage':
          this.#steps.push({
            turn: this.#turns,
            step: event.iteration,
            usage: event.usage,
            ...(event.sampling ? { sampling: event.sampling.server ?? event.sampling.name } : {}),
          });
          this.#total = sumUsage(this.#total, event.usage);
          break;
        // Ending the run (task_completion, …) is not a tool call to the user.
        case 'tool-call':
          if (!LOOP_CONTROL_TOOLS.has(event.name)) this.#toolCalls++;
          break;
        case 'tool-result-error':
          if (event.code !== 'not_run' && !LOOP_CONTROL_TOOLS.has(event.name)) this.#toolErrors++;
          break;
        case 'loop-end':
          this.#agentMs += event.result.durationMs;
          break;
        // A sub-agent's model calls spend the session's tokens too; they are no steps of the session's agent.
        case 'subagent-event':
          if (event.event.type === 'usage') this.#total = sumUsage(this.#total, event.event.usage);
          break;
      }
    });
  }

  /** What the session has used so far. */
  stats(): UsageStats {
    return {
      steps: [...this.#steps],
      total: this.#total,
      turns: this.#turns,
      toolCalls: this.#toolCalls,
      toolErrors: this.#toolErrors,
      agentMs: this.#agentMs,
      sessionMs: this.now() - this.#started,
      ...(this.#agent.contextUsage ? { context: this.#agent.contextUsage } : {}),
      metrics: this.#agent.metrics,
    };
  }

  /** Stops listening to the agent. */
  dispose(): void {
    this.#stop();
  }
}

// core's addUsage, written out: the session's modules load before the prompt, without @agentloop/core
// (see errors/cli-error.ts).
function sumUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}
