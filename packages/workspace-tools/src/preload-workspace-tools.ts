import type { Tool } from '@agentloop/tools';
import { loadDiff } from './files/index.js';
import { picomatchLibrary } from './guard/index.js';
import { ignoreLibrary, loadRe2 } from './listing/index.js';
import { loadZod } from './schema/lazy-zod-parameters.js';

/**
 * Loads now what the workspace tools load on their first call — zod and the tools' argument schemas,
 * picomatch for the deny-list and patterns, ignore for `.gitignore`, re2js for search, diff for edits —
 * so that the first call costs what later ones do. The tools load nothing at import, so that a process
 * that never calls one never pays for them; a caller that knows calls are coming starts this where it
 * waits anyway, e.g. while the first model request is in flight. Each library is imported, which an app's
 * bundler follows: a bundled app awaits this before its first run, since the synchronous matchers cannot
 * load picomatch or ignore from a bundle themselves. `tools` are those whose schemas to build
 * (the workspace tools among them; others are left alone). One library at a time, with the event loop let
 * run between them, so that an answer arriving meanwhile waits for one load at most. Never rejects: a
 * library that cannot load fails the call that needs it, as it would have.
 */
export async function preloadWorkspaceTools(tools: Iterable<Pick<Tool, 'parameters'>> = []): Promise<void> {
  const steps: (() => unknown)[] = [
    async () => {
      await loadZod();
      for (const tool of tools) await zodSchemaOf(tool)?.();
    },
    () => picomatchLibrary.load(),
    () => ignoreLibrary.load(),
    loadRe2,
    loadDiff,
  ];
  for (const step of steps) {
    await new Promise((resolve) => setImmediate(resolve));
    try {
      await step();
    } catch {
      // Left for the call that needs it to report.
    }
  }
}

/** The lazily built zod schema of a workspace tool's parameters, if they are such. */
function zodSchemaOf(tool: Pick<Tool, 'parameters'>): (() => Promise<unknown>) | undefined {
  const parameters = tool.parameters as { zodSchema?: unknown } | undefined;
  return typeof parameters?.zodSchema === 'function' ? (parameters.zodSchema as () => Promise<unknown>) : undefined;
}
