import type { AgentResult } from '@agentloop/core';

/** An error as a run's result carries it over HTTP: `AgentloopError.toJSON()`. */
export interface DurableRunError {
  name: string;
  code: string;
  message: string;
  retryable?: boolean;
  statusCode?: number;
  [field: string]: unknown;
}

/**
 * What `run` returns: the agent's AgentResult as JSON, the same for every exit as an in-process run's,
 * with its `error` (for `cancelled` and `error`) as the error's JSON.
 */
export type DurableRunResult<Result = string> = Omit<AgentResult<Result>, 'error'> & { error?: DurableRunError };

/** The result as it goes over the wire: fields left undefined are dropped, errors become their JSON. */
export function durableRunResult<Result>(result: AgentResult<Result>): DurableRunResult<Result> {
  return JSON.parse(JSON.stringify(result)) as DurableRunResult<Result>;
}
