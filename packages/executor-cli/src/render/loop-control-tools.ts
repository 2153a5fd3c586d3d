/**
 * The loop-control tools: calling one ends the run (`task_completion`, `ask_question`, `converse`). The
 * result shows them, not a tool line, and `/usage` does not count them as tool calls.
 */
export const LOOP_CONTROL_TOOLS: ReadonlySet<string> = new Set(['task_completion', 'ask_question', 'converse']);
