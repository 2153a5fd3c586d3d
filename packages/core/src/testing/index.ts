export type { JsonValue } from './canonical-json.js';
export type { CassetteErrorCode, CassetteErrorOptions } from './cassette-error.js';
export { CassetteError } from './cassette-error.js';
export type { JsonDifference } from './first-difference.js';
export { type JournalRecord, MemoryJournal, type MemoryJournalOptions } from './memory-journal.js';
export type { RecordProviderOptions } from './record-provider.js';
export { RecordingProvider, recordProvider } from './record-provider.js';
export type { ReplayProviderOptions } from './replay-provider.js';
export { ReplayProvider, replayProvider } from './replay-provider.js';
export type {
  RecordedRequest,
  ScriptedProviderOptions,
  ScriptedResponse,
  ScriptedToolCall,
  ScriptStep,
} from './scripted-provider.js';
export { ScriptedProvider } from './scripted-provider.js';
