import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from '@agentloop/core';
import { AgentloopError } from '@agentloop/core';

/**
 * Imports the plugin modules the configuration names: absolute paths (relative ones were resolved
 * against their file when the configuration was read) or package names, found from `projectDirectory`
 * first when one is given — only for a project the user trusts, since a package found there is the
 * project's code — then from agentloop's own location. A module
 * exports a plugin — `{ name, register(container) }` — or a list of them, as its default export or as
 * `plugin`. Throws an AgentloopError (`plugin_not_found`, `plugin_failed`) naming the module.
 */
export async function loadPluginModules(
  specifiers: readonly string[],
  projectDirectory: string | undefined,
): Promise<Plugin[]> {
  const plugins: Plugin[] = [];
  for (const specifier of specifiers) {
    let module: Record<string, unknown>;
    try {
      module = (await import(moduleUrl(specifier, projectDirectory))) as Record<string, unknown>;
    } catch (error) {
      throw new AgentloopError(
        `Cannot load plugin ${specifier}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        {
          code: 'plugin_not_found',
          cause: error,
        },
      );
    }
    const exported = module.default ?? module.plugin;
    const candidates = Array.isArray(exported) ? exported : [exported];
    for (const candidate of candidates) {
      if (!isPlugin(candidate)) {
        throw new AgentloopError(
          `Plugin module ${specifier} does not export a plugin: export { name, register(container) } as its default export or as "plugin".`,
          {
            code: 'plugin_failed',
          },
        );
      }
      plugins.push(candidate);
    }
  }
  return plugins;
}

// A package name is looked up from the project first, so a plugin installed there is found even when
// agentloop is installed elsewhere; then from agentloop's own location.
function moduleUrl(specifier: string, projectDirectory: string | undefined): string {
  if (isAbsolute(specifier)) return pathToFileURL(specifier).href;
  if (projectDirectory === undefined) return specifier;
  try {
    return pathToFileURL(createRequire(join(projectDirectory, 'noop.js')).resolve(specifier)).href;
  } catch {
    return specifier;
  }
}

function isPlugin(value: unknown): value is Plugin {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Plugin).name === 'string' &&
    typeof (value as Plugin).register === 'function'
  );
}
