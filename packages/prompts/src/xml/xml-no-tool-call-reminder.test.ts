import { describe, expect, it } from 'vitest';
import { xmlNoToolCallReminder } from './xml-no-tool-call-reminder.js';

describe('xmlNoToolCallReminder', () => {
  it('says no tool ran and restates the block format', () => {
    const reminder = xmlNoToolCallReminder(1);

    expect(reminder).toContain('Your last response had no tool block');
    expect(reminder).toContain(
      '<tool>\n{\n  "server_name": "local",\n  "tool_name": "tool_name_here",\n  "arguments": { "param": "value" }\n}\n</tool>',
    );
    expect(reminder).toContain('task_completion');
    expect(reminder).toContain('ask_question');
    expect(reminder).toContain('converse');
  });

  it('does not warn of the end of the turn at the first reminder', () => {
    expect(xmlNoToolCallReminder(1)).not.toContain('last reminder');
  });

  it('warns from the second reminder in a row that the next reply ends the turn', () => {
    expect(xmlNoToolCallReminder(2)).toContain('This is the last reminder');
    expect(xmlNoToolCallReminder(3)).toContain('This is the last reminder');
  });
});
