export { ScriptedProvider } from './scripted-provider.js';
export type { RecordedRequest, ScriptedProviderOptions, ScriptedResponse, ScriptedToolCall, ScriptStep } from './scripted-provider.js';
