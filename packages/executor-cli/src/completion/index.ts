export type {
  Completion,
  CompletionServer,
  CompletionSources,
  PromptCompleter,
  PromptCompleterOptions,
} from './prompt-completer.js';
export { createPromptCompleter, DEFAULT_COMPLETION_TIMEOUT_MS } from './prompt-completer.js';
export { sessionCompletionSources } from './session-completion-sources.js';
