export type { MemoryChanges } from './recording-memory.js';
export { RecordingMemory } from './recording-memory.js';
export type { SessionRecorderOptions } from './session-recorder.js';
export { pendingQuestionOf, SessionRecorder } from './session-recorder.js';
export { sessionTitle } from './session-title.js';
