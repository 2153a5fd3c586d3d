import { formatXmlToolCall } from './format-xml-tool-call.js';

/**
 * The reminder the loop sends (as a user message) after a response without a tool block in XML mode.
 * It restates the block format, since a model that forgot to call a tool has usually forgotten how.
 * From the second reminder in a row it warns that the next reply without a block ends the turn as a
 * message, which is what the core loop does after two reminders.
 */
export function xmlNoToolCallReminder(consecutive: number): string {
  const last =
    consecutive >= 2
      ? ' This is the last reminder: a reply without a tool block now ends your turn as a message to the user.'
      : '';
  return [
    `Your last response had no tool block, so no tool ran and it did not reach the user.${last}`,
    'Every response must end with exactly one tool block, after your <thinking>:',
    '',
    formatXmlToolCall({ toolName: 'tool_name_here', arguments: { param: 'value' } }),
    '',
    "Call task_completion if the task is done, ask_question if you need the user's input, converse to reply to the user, or another tool to go on with the task.",
  ].join('\n');
}
