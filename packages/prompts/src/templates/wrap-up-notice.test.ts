import { describe, expect, it } from 'vitest';
import { wrapUpNotice } from './wrap-up-notice.js';

describe('wrapUpNotice', () => {
  it('tells the model that this is its last step and to summarise in task_completion', () => {
    const notice = wrapUpNotice('native');

    expect(notice).toContain('this is your last step');
    expect(notice).toContain('Call task_completion now');
    expect(notice).toContain('what remains to be done');
    expect(notice).not.toContain('<tool>');
  });

  it('shows the task_completion block to write in XML mode', () => {
    expect(wrapUpNotice('xml')).toContain(
      '<tool>\n{\n  "server_name": "local",\n  "tool_name": "task_completion",\n  "arguments": { "result": "What I did, where the task stands, and what remains to be done." }\n}\n</tool>',
    );
  });
});
