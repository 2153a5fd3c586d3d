import type { ToolProtocol } from '../prompt-context.js';
import { formatXmlToolCall } from '../xml/format-xml-tool-call.js';

/**
 * What the model is told before the last model call a run allows (`onMaxIterations: 'wrap-up'`): stop,
 * and end the turn with a `task_completion` that says what was done and what remains, so that the user
 * sees where the task stands instead of a run that stopped halfway without a word. The loop sends it with
 * that one request only (it does not stay in the history, where a continued run would read it as still
 * in force). In XML mode it shows the block to write, since only the loop-control tools are listed then.
 */
export function wrapUpNotice(protocol: ToolProtocol): string {
  const lines = [
    'Step limit reached: this is your last step in this turn. Do not start new work: the only tools left are task_completion, ask_question and converse.',
    'Call task_completion now. In its result, tell the user what you have done, where the task stands, and what remains to be done, so that they can decide how to go on.',
  ];
  if (protocol === 'xml') {
    lines.push(
      'Write it as one tool block, after your <thinking>:',
      '',
      formatXmlToolCall({
        toolName: 'task_completion',
        arguments: { result: 'What I did, where the task stands, and what remains to be done.' },
      }),
    );
  }
  return lines.join('\n');
}
