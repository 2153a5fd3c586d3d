import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Tool, ToolContext } from '@agentloop/tools';
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** A workspace and a directory outside it, both real temporary directories, links resolved. */
export interface TempWorkspace {
  workspace: string;
  outside: string;
  /** Writes a file under the workspace (folders made), returning its absolute path. */
  write(path: string, content: string): string;
  /** A tool context on the workspace; `signal` defaults to one never aborted. */
  context(signal?: AbortSignal): ToolContext;
  remove(): void;
}

export function createTempWorkspace(prefix = 'agentloop-ws-'): TempWorkspace {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), `${prefix}outside-`)));
  return {
    workspace,
    outside,
    write(path, content) {
      const file = join(workspace, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    context: (signal = new AbortController().signal) => ({
      signal,
      sessionId: 'session-1',
      workspace,
      toolCallId: 'call-1',
      reportProgress: () => undefined,
    }),
    remove() {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a tool's execute with arguments as the registry would pass them after validation (defaults applied);
 * throws the issues' messages when the arguments are invalid.
 */
export async function call(tool: Tool, args: Record<string, unknown>, context: ToolContext): Promise<string> {
  const standard = (tool.parameters as Partial<StandardSchemaV1>)['~standard'];
  let parsed: unknown = args;
  if (standard) {
    const outcome = await standard.validate(args);
    if (outcome.issues) throw new Error(outcome.issues.map((issue) => issue.message).join('; '));
    parsed = outcome.value;
  }
  return (await tool.execute(parsed, context)) as string;
}

/** The message and code of what a call threw, for assertions; fails when it did not throw. */
export async function failure(promise: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  throw new Error('expected the call to fail, and it succeeded');
}
