export { DirectJournal, type DirectJournalOptions } from './direct-journal.js';
export type { AwaitAnswerOptions, Journal } from './journal.js';
