export type {
  RecordedRequest,
  ScriptedProviderOptions,
  ScriptedResponse,
  ScriptedToolCall,
  ScriptStep,
} from './scripted-provider.js';
export { ScriptedProvider } from './scripted-provider.js';
