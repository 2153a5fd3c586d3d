// What the model that compacts a conversation is told, and the message its summary becomes. A summary
// replaces the older part of an agent's conversation, so it must carry everything the agent would
// otherwise have read there: the headings below are what a continuing agent asks about first.

/** The system prompt of the summarising call. */
export function compactionSystemPrompt(): string {
  return [
    'You compact the conversation of an autonomous agent that works on a task by calling tools in a loop, so that it can go on with less context.',
    "Your summary replaces the older part of its conversation. The agent keeps its instructions, the user's first message and its most recent steps, and reads your summary between them: whatever you leave out is gone for it.",
    'Write for the agent, not for the user. Be exact with names, paths, commands, numbers and error messages; be brief with everything else. Do not call tools.',
  ].join('\n');
}

/** The request of the summarising call: the transcript of the older part, and what the summary must hold. */
export function compactionRequest(transcript: string): string {
  return [
    'Here is the older part of the conversation, which your summary will replace:',
    '',
    '<transcript>',
    transcript,
    '</transcript>',
    '',
    'Write the summary now, under these headings, leaving out a heading with nothing under it:',
    '## Task — what the user asked for, with every constraint and preference they stated (their words where the wording matters).',
    '## Decisions — what was decided, and why.',
    '## Files and resources — what was read, created or changed, with the paths and what matters about each.',
    '## Errors — what failed, and how it was resolved, or that it was not.',
    '## Open questions — what is still unclear, and what the user has yet to answer.',
    '## State of the work — what was done last, and what comes next.',
    'A summary of earlier compactions in the transcript is part of the history: carry what it holds into yours.',
  ].join('\n');
}

/** What a summarised compaction leaves in the conversation, in place of the messages it replaced. */
export function compactionSummaryMessage(summary: string, replacedMessages: number): string {
  return [
    '<conversation_summary>',
    `The conversation was compacted to fit the context window: ${replacedMessages} earlier message${replacedMessages === 1 ? ' was' : 's were'} replaced by this summary. The user's first message is above it; the most recent steps follow it.`,
    '',
    summary.trim(),
    '</conversation_summary>',
  ].join('\n');
}
