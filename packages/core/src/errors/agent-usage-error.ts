import { AgentloopError } from '@agentloop/spec';

/** How an agent was misused. */
export type AgentUsageErrorCode =
  | 'agent_busy'
  | 'empty_input'
  | 'invalid_option'
  | 'unsupported_provider'
  | 'unknown_approval'
  | 'unknown_question'
  | 'unknown_elicitation'
  | 'invalid_usage';

/** The agent is used in a way it does not allow (e.g. `run` while a run is going). */
export class AgentUsageError extends AgentloopError<AgentUsageErrorCode> {
  /** The fields of an answer at fault, where the error is about some: a form's required fields left empty. */
  readonly fields: readonly string[] | undefined;

  constructor(
    message: string,
    code: AgentUsageErrorCode = 'invalid_usage',
    details: { fields?: readonly string[] } = {},
  ) {
    super(message, { code });
    this.fields = details.fields;
  }
}
