// The schemas that check saved records, in one module that zod comes with. Stores load it with
// loadRecordSchemas() before they read a record, so that a process that only creates a session (a
// one-step `agentloop run`) never loads zod.
export { FILE_VERSIONS } from '../jsonl/session-file-schemas.js';
export { readMessage, readSessionRow } from '../sqlite/session-row-schema.js';
