// What other agentloop packages need from this one and apps do not: the loop's argument decoding and
// result helpers, and the schema conversion the registry uses. Not part of the public API: these change
// with the loop, without notice.

export { loopControlExit } from '../builtin/loop-control-tools.js';
export { taskCompletionWithOutput, taskCompletionWithOutputExit } from '../builtin/task-completion-with-output.js';
export type { LazyLibrary, LazyLibraryOptions } from '../libraries/index.js';
export { lazyLibrary } from '../libraries/index.js';
export { stringifyToolResult, toolCallFailure } from '../run-tool-call.js';
export * from '../schema/index.js';
export type { ArgumentsProblem, ParsedArguments, ParseToolArgumentsOptions } from '../tool-arguments.js';
export { MAX_ARGUMENT_CHARS, MAX_ARGUMENT_DEPTH, parseToolArguments } from '../tool-arguments.js';
export type { ServerToolResolution } from '../xml/resolve-server-tool.js';
export { LOCAL_SERVER_NAME, resolveServerTool } from '../xml/resolve-server-tool.js';
