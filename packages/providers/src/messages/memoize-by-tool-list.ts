import type { ToolDefinition } from '@agentloop/spec';

/**
 * Caches the conversion of a tool list. The loop offers the same list (the registry's cached
 * `definitions()`, a new array whenever a tool is added or removed) at every step, so it is converted
 * once per list rather than once per step. The cache is weak; callers must not mutate what it returns.
 */
export function memoizeByToolList<Result>(
  convert: (tools: readonly ToolDefinition[]) => Result,
): (tools: readonly ToolDefinition[]) => Result {
  const cache = new WeakMap<readonly ToolDefinition[], Result>();
  return (tools) => {
    let result = cache.get(tools);
    if (result === undefined) {
      result = convert(tools);
      cache.set(tools, result);
    }
    return result;
  };
}
