import { AgentloopError } from '@agentloop/spec';

/** Why a tool cannot be registered. */
export type ToolDefinitionErrorCode =
  | 'duplicate_tool'
  | 'protected_tool'
  | 'invalid_tool_name'
  | 'invalid_tool_definition';

/** A tool's definition or registration is wrong (duplicate name, removing a loop-control tool, bad schema). */
export class ToolDefinitionError extends AgentloopError<ToolDefinitionErrorCode> {
  /** `cause` is what was thrown while the definition was read, when that is why it is invalid. */
  constructor(message: string, code: ToolDefinitionErrorCode = 'invalid_tool_definition', cause?: unknown) {
    super(message, cause === undefined ? { code } : { code, cause });
  }
}
