import { isLoopControlToolName, loopControlTools } from './builtin/index.js';
import { ToolDefinitionError } from './errors/index.js';
import type { ArgumentValidator } from './schema/index.js';
import { createArgumentValidator } from './schema/index.js';
import { parametersJsonSchema } from './schema/parameters-json-schema.js';
import { readToolParameters } from './schema/read-tool-parameters.js';
import type { JsonSchema, Tool, ToolDefinition } from './tool.js';

/** A tool as the registry holds it: the tool, its definition for models and its compiled validator. */
export interface RegisteredTool {
  /** The tool as it was registered. */
  readonly tool: Tool;
  /** Name, description and JSON Schema, as sent to the model. */
  readonly definition: ToolDefinition;
  /** Validates a call's arguments against the tool's schema. */
  readonly validate: ArgumentValidator;
  /** True for `task_completion`, `ask_question` and `converse`. */
  readonly loopControl: boolean;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The tools an agent can call. It always holds the three loop-control tools, which cannot be removed.
 * `list()` and `definitions()` give a stable order (loop-control tools first, then the others by name),
 * so the same tool set always renders the same prompt and a provider can cache its prefix.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  #ordered: readonly RegisteredTool[] | undefined;
  #definitions: readonly ToolDefinition[] | undefined;

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of loopControlTools) this.#add(tool, true);
    for (const tool of tools) this.register(tool);
  }

  /**
   * Adds a tool. Throws ToolDefinitionError on a duplicate or invalid name, a schema it cannot use, or a
   * `timeoutMs` that is negative or not finite.
   */
  register(tool: Tool): RegisteredTool {
    if (isLoopControlToolName(tool.name)) {
      throw new ToolDefinitionError(
        `Tool "${tool.name}" is a loop-control tool and is always registered; give your tool another name.`,
        'duplicate_tool',
      );
    }
    return this.#add(tool, false);
  }

  /** Removes a tool; returns false when no tool has that name. Loop-control tools cannot be removed. */
  unregister(name: string): boolean {
    if (isLoopControlToolName(name)) {
      throw new ToolDefinitionError(`Tool "${name}" is a loop-control tool and cannot be removed.`, 'protected_tool');
    }
    const removed = this.#tools.delete(name);
    if (removed) this.#invalidate();
    return removed;
  }

  /** The registered tool with this name, if any. */
  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  /** True when a tool with this name is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** How many tools are registered, loop-control tools included. */
  get size(): number {
    return this.#tools.size;
  }

  /** All tools, loop-control tools first, then the others sorted by name. */
  list(): readonly RegisteredTool[] {
    this.#ordered ??= [...this.#tools.values()].sort(compareTools);
    return this.#ordered;
  }

  /** The tools' definitions in `list()` order; the same array until the registry changes. */
  definitions(): readonly ToolDefinition[] {
    this.#definitions ??= sharedDefinitionList(this.list().map((entry) => entry.definition));
    return this.#definitions;
  }

  #add(tool: Tool, loopControl: boolean): RegisteredTool {
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      throw new ToolDefinitionError(
        `Tool name ${JSON.stringify(tool?.name)} is invalid: use 1 to 64 letters, digits, "_" or "-".`,
        'invalid_tool_name',
      );
    }
    if (this.#tools.has(tool.name)) {
      throw new ToolDefinitionError(
        `A tool named "${tool.name}" is already registered; tool names must be unique.`,
        'duplicate_tool',
      );
    }
    if (typeof tool.execute !== 'function') {
      throw new ToolDefinitionError(`Tool "${tool.name}" has no execute function.`);
    }
    const { timeoutMs } = tool;
    if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
      throw new ToolDefinitionError(
        `Tool "${tool.name}": timeoutMs must be a finite number of milliseconds, 0 or more (0 never times out), ` +
          `not ${describeValue(timeoutMs)}.`,
      );
    }
    if (tool.server !== undefined) this.#checkServer(tool);
    const entry = registeredEntry(tool, loopControl);
    this.#tools.set(tool.name, entry);
    this.#invalidate();
    return entry;
  }

  // The XML protocol calls a server's tool by the pair, so the pair must name one tool as a name does.
  #checkServer(tool: Tool): void {
    const server = tool.server;
    const valid = (text: unknown) => typeof text === 'string' && text.trim() !== '';
    if (!valid(server?.name) || !valid(server?.toolName) || server?.name === 'local') {
      throw new ToolDefinitionError(
        `Tool "${tool.name}": its server must be { name, toolName }, two non-empty strings, and the name not ` +
          '"local" (the XML protocol\'s name for the agent\'s own tools).',
        'invalid_tool_definition',
      );
    }
    for (const entry of this.#tools.values()) {
      if (entry.tool.server?.name === server?.name && entry.tool.server?.toolName === server?.toolName) {
        throw new ToolDefinitionError(
          `Tool "${tool.name}" and tool "${entry.tool.name}" are both "${server?.toolName}" of server ` +
            `"${server?.name}"; a server's tool names must be unique.`,
          'duplicate_tool',
        );
      }
    }
  }

  #invalidate(): void {
    this.#ordered = undefined;
    this.#definitions = undefined;
  }
}

// Converting a schema and compiling its validator is the costly part of registering a tool (zod compiles
// a validator on its first parse), and the same tool objects are registered in every new agent — the
// loop-control tools always — so the work is done once per parameters object.
const compiled = new WeakMap<object, { inputSchema: JsonSchema; validate: ArgumentValidator }>();

function compileParameters(tool: Tool): { inputSchema: JsonSchema; validate: ArgumentValidator } {
  const parameters = readToolParameters(tool.name, () => tool.parameters);
  let entry = compiled.get(parameters as object);
  if (!entry) {
    const inputSchema = parametersJsonSchema(tool.name, parameters);
    const validate = readToolParameters(tool.name, () => createArgumentValidator(parameters, inputSchema));
    entry = { inputSchema, validate };
    compiled.set(parameters as object, entry);
  }
  return entry;
}

// Every new agent registers the same tool objects (the loop-control tools always), so an entry is made
// once per tool object and shared by the registries that hold it, with its definition: then the same tool
// set gives the same definitions, which lets a provider convert them once for all agents (less heap
// per agent). An entry is made again when the tool object was changed since (its name, description,
// parameters or server), so a changed tool is never served a stale definition.
const entries = new WeakMap<Tool, RegisteredTool>();

function registeredEntry(tool: Tool, loopControl: boolean): RegisteredTool {
  const cached = entries.get(tool);
  if (cached && cached.loopControl === loopControl && describesTool(cached, tool)) return cached;
  const { inputSchema, validate } = compileParameters(tool);
  const entry: RegisteredTool = {
    tool,
    definition: {
      name: tool.name,
      description: tool.description ?? '',
      inputSchema,
      ...(tool.server ? { server: { name: tool.server.name, toolName: tool.server.toolName } } : {}),
    },
    validate,
    loopControl,
  };
  entries.set(tool, entry);
  return entry;
}

function describesTool(entry: RegisteredTool, tool: Tool): boolean {
  const { definition } = entry;
  return (
    definition.name === tool.name &&
    definition.description === (tool.description ?? '') &&
    compiled.get(readToolParameters(tool.name, () => tool.parameters) as object)?.inputSchema ===
      definition.inputSchema &&
    definition.server?.name === tool.server?.name &&
    definition.server?.toolName === tool.server?.toolName
  );
}

/** A node of the trie of definition lists: the list that ends here, and the lists that go on. */
interface ListNode {
  list?: readonly ToolDefinition[];
  next: WeakMap<ToolDefinition, ListNode>;
}
const lists: ListNode = { next: new WeakMap() };

/**
 * The one array with these definitions in this order: registries with the same tools hand out the same
 * `definitions()`, which providers key their converted tool lists on. Weak throughout: a list goes with
 * its tools.
 */
function sharedDefinitionList(definitions: ToolDefinition[]): readonly ToolDefinition[] {
  let node = lists;
  for (const definition of definitions) {
    let next = node.next.get(definition);
    if (!next) {
      next = { next: new WeakMap() };
      node.next.set(definition, next);
    }
    node = next;
  }
  node.list ??= definitions;
  return node.list;
}

function describeValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : `a ${typeof value}`;
}

function compareTools(a: RegisteredTool, b: RegisteredTool): number {
  if (a.loopControl !== b.loopControl) return a.loopControl ? -1 : 1;
  if (a.loopControl) return loopControlTools.indexOf(a.tool) - loopControlTools.indexOf(b.tool);
  return a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0;
}
