import { AgentloopError } from '@agentloop/spec';

/**
 * A project's instruction file (`.agentloop/system_prompt.md`, `AGENTS.md`) exists but cannot be read (a
 * directory, no permission, an I/O error). A missing file is not an error: its section is left out.
 */
export class ProjectInstructionsError extends AgentloopError {
  /** The file that could not be read. */
  readonly path: string;

  constructor(path: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Cannot read the instruction file ${path}: ${reason}`, { code: 'project_instructions_unreadable', cause });
    this.path = path;
  }
}
