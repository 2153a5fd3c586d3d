import {
  type RunToolCallOptions,
  runToolCall,
  type ToolCallOutcome,
  type ToolContext,
  type ToolProgress,
  ToolRegistry,
} from '@agentloop/tools';

/** Runs one call as the loop does (validation, timeout, cancel), recording the progress it reports. */
export async function callTool(
  registry: ToolRegistry,
  toolName: string,
  args: Record<string, unknown> = {},
  options: RunToolCallOptions & { signal?: AbortSignal; context?: Partial<ToolContext> } = {},
): Promise<ToolCallOutcome & { progress: ToolProgress[] }> {
  const progress: ToolProgress[] = [];
  const outcome = await runToolCall(
    registry,
    { toolCallId: 'call_1', toolName, arguments: args },
    {
      signal: options.signal ?? new AbortController().signal,
      sessionId: 'test',
      workspace: process.cwd(),
      toolCallId: 'call_1',
      reportProgress: (update) => progress.push(update),
      ...options.context,
    },
    options,
  );
  return { ...outcome, progress };
}

export { ToolRegistry };
