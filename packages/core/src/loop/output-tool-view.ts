import type { ToolDefinition } from '@agentloop/spec';
import type { RegisteredTool, ToolRegistry } from '@agentloop/tools';

/** The tools one run sees: what the loop reads of a ToolRegistry. */
export type RunTools = Pick<ToolRegistry, 'get' | 'list' | 'definitions'>;

/**
 * The tools of a run with an `output` schema: the agent's registry as it is (a tool registered during
 * the run shows up), with task_completion replaced by the run's own, whose result takes that schema. The
 * lists are derived once per change of the registry's, so that they stay the same arrays from step to
 * step, as prompt builders and providers cache by array.
 */
export class OutputToolView implements RunTools {
  readonly #registry: ToolRegistry;
  readonly #taskCompletion: RegisteredTool;
  #listSource: readonly RegisteredTool[] | undefined;
  #list: readonly RegisteredTool[] = [];
  #definitionsSource: readonly ToolDefinition[] | undefined;
  #definitions: readonly ToolDefinition[] = [];

  constructor(registry: ToolRegistry, taskCompletion: RegisteredTool) {
    this.#registry = registry;
    this.#taskCompletion = taskCompletion;
  }

  get(name: string): RegisteredTool | undefined {
    return name === this.#taskCompletion.definition.name ? this.#taskCompletion : this.#registry.get(name);
  }

  list(): readonly RegisteredTool[] {
    const source = this.#registry.list();
    if (source !== this.#listSource) {
      this.#listSource = source;
      this.#list = source.map((entry) => (this.#replaces(entry.definition) ? this.#taskCompletion : entry));
    }
    return this.#list;
  }

  definitions(): readonly ToolDefinition[] {
    const source = this.#registry.definitions();
    if (source !== this.#definitionsSource) {
      this.#definitionsSource = source;
      const own = this.#taskCompletion.definition;
      this.#definitions = source.map((definition) => (this.#replaces(definition) ? own : definition));
    }
    return this.#definitions;
  }

  #replaces(definition: ToolDefinition): boolean {
    return definition.name === this.#taskCompletion.definition.name;
  }
}
