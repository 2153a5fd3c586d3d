import { describe, expect, it } from 'vitest';
import type { PromptContext } from '../prompt-context.js';
import { substitutePromptVariables } from './substitute-prompt-variables.js';

const tool = (name: string) => ({ name, description: '', inputSchema: { type: 'object' } });
const context: PromptContext = {
  tools: [tool('task_completion'), tool('read_file')],
  protocol: 'xml',
  provider: 'ollama',
  model: 'qwen3',
};

describe('substitutePromptVariables', () => {
  it('replaces {{provider}}, {{model}} and {{tools}} (names, comma-separated, in order)', () => {
    expect(substitutePromptVariables('{{model}} via {{provider}}; tools: {{tools}}.', context)).toBe(
      'qwen3 via ollama; tools: task_completion, read_file.',
    );
  });

  it('replaces every occurrence and allows spaces inside the braces', () => {
    expect(substitutePromptVariables('{{ model }}/{{model}}', context)).toBe('qwen3/qwen3');
  });

  it('gives the empty string for an absent provider or model', () => {
    expect(substitutePromptVariables('[{{provider}}][{{model}}]', { tools: [], protocol: 'native' })).toBe('[][]');
  });

  it('leaves unknown variables as they are', () => {
    expect(substitutePromptVariables('{{user}} {{ cwd }}', context)).toBe('{{user}} {{ cwd }}');
  });
});
