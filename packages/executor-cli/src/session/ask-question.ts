import type { AskQuestionPayload } from '@agentloop/core';
import type { TerminalOutput } from '../render/index.js';
import { stripControls } from '../render/strip-controls.js';
import type { TerminalInput } from './line-reader.js';

/** Asks the user the agent's question; resolves with the answer, or undefined when the user backs out. */
export type QuestionPrompter = (question: AskQuestionPayload) => Promise<string | undefined>;

const SOMETHING_ELSE = '\u0000something-else';

/**
 * The question as a list to choose from with the arrow keys, its suggestions plus "Something else…" for
 * a free answer; a question without suggestions asks for text. Esc or Ctrl-C backs out. Uses
 * @clack/prompts, loaded when the first question comes. The model wrote the question and the suggestions:
 * they are shown stripped of control sequences, and a chosen suggestion is answered as the model wrote it.
 */
export function clackQuestionPrompter(input: TerminalInput, output: TerminalOutput): QuestionPrompter {
  return async ({ question, suggestions = [] }) => {
    const { isCancel, select, text } = await import('@clack/prompts');
    const streams = { input: input as NodeJS.ReadableStream as never, output: output as never };
    if (suggestions.length > 0) {
      const choice = await select({
        ...streams,
        message: stripControls(question),
        options: [
          ...suggestions.map((suggestion) => ({ value: suggestion, label: stripControls(suggestion) })),
          { value: SOMETHING_ELSE, label: 'Something else…', hint: 'type your own answer' },
        ],
      });
      if (isCancel(choice)) return undefined;
      if (choice !== SOMETHING_ELSE) return choice;
    }
    const answer = await text({
      ...streams,
      message: suggestions.length > 0 ? 'Your answer' : stripControls(question),
      validate: (value) => (value?.trim() ? undefined : 'Type an answer, or press Esc to go back to the prompt.'),
    });
    return isCancel(answer) ? undefined : answer.trim();
  };
}

/** The answer a typed line gives: a suggestion's number picks it; anything else is the answer as typed. */
export function answerFromLine(line: string, suggestions: readonly string[] = []): string {
  const number = /^\s*(\d+)\s*$/.exec(line)?.[1];
  const picked = number === undefined ? undefined : suggestions[Number(number) - 1];
  return picked ?? line;
}
