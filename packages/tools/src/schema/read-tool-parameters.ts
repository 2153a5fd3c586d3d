import { describeThrown, ToolDefinitionError } from '../errors/index.js';

/**
 * Runs `read`, which touches a tool's parameters: the tool's own getters, a Proxy, or zod's internals
 * while it converts them. Whatever that throws becomes a ToolDefinitionError (`invalid_tool_definition`)
 * naming the tool and what was thrown, so a broken schema fails its registration with a reason
 * instead of a bare error from deep inside a conversion.
 */
export function readToolParameters<Value>(toolName: string, read: () => Value): Value {
  try {
    return read();
  } catch (error) {
    throw new ToolDefinitionError(
      `Tool "${toolName}": reading its parameters threw "${describeThrown(error)}"; pass a zod schema or a ` +
        'plain JSON Schema object whose fields can be read.',
      'invalid_tool_definition',
      error,
    );
  }
}
