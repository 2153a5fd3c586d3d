import type { PromptSection } from '../prompt-context.js';
import type { EnvironmentSnapshot } from './format-environment-context.js';
import { formatEnvironmentContext, formatEnvironmentDiff } from './format-environment-context.js';

/** The id of the environment-context section. */
export const ENVIRONMENT_CONTEXT_SECTION_ID = 'environment-context';

/**
 * Tracks what the model has been told about its environment. It is a PromptSection: `render()` always
 * gives the full `<environment_context>` block of the environment it was created with, so the system
 * prompt stays byte-identical for the whole session and a provider can keep caching its prefix.
 *
 * When the environment changes mid-session (the user `cd`s, loosens the approval policy), the agent
 * calls `diff(next)` and, unless it returns the empty string, appends the `<environment_diff>` block it
 * returns to the conversation as a user message before the next model call. Each diff is relative to
 * what the model was last told, so a field that changes and changes back is announced both times.
 */
export class EnvironmentContext implements PromptSection {
  readonly id = ENVIRONMENT_CONTEXT_SECTION_ID;
  readonly #initial: EnvironmentSnapshot;
  #current: EnvironmentSnapshot;

  constructor(initial: EnvironmentSnapshot) {
    this.#initial = copySnapshot(initial);
    this.#current = this.#initial;
  }

  /** The environment the system prompt describes. */
  get initial(): EnvironmentSnapshot {
    return this.#initial;
  }

  /** The environment as the model was last told it (the initial one until a diff). */
  get current(): EnvironmentSnapshot {
    return this.#current;
  }

  /** The full `<environment_context>` block of the initial environment; the empty string when no field is set. */
  render(): string {
    return formatEnvironmentContext(this.#initial);
  }

  /**
   * Records `next` as the environment the model knows and returns an `<environment_diff>` block with the
   * fields that changed since the last announcement, or the empty string when none did. `next` is the
   * whole environment, not a patch: `{ ...environment.current, cwd }` changes one field.
   */
  diff(next: EnvironmentSnapshot): string {
    const text = formatEnvironmentDiff(this.#current, next);
    this.#current = copySnapshot(next);
    return text;
  }
}

// A copy, so a caller that mutates its object (or its roots array) does not change what was announced.
function copySnapshot(snapshot: EnvironmentSnapshot): EnvironmentSnapshot {
  return Object.freeze({
    ...snapshot,
    ...(snapshot.writableRoots && { writableRoots: Object.freeze([...snapshot.writableRoots]) }),
  });
}
