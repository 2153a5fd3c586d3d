import { describe, expect, it } from 'vitest';
import { sendsReasoningByDefault } from './create-openai-client.js';

describe('sendsReasoningByDefault', () => {
  it.each([
    ['https://api.deepseek.com', true],
    ['https://api.deepseek.com/v1', true],
    ['https://api.moonshot.ai/v1', true],
    ['https://api.moonshot.cn/v1', true],
    ['http://localhost:11434/v1', true],
    ['http://127.0.0.1:8080/v1', true],
    ['http://[::1]:8000/v1', true],
    ['https://api.groq.com/openai/v1', false],
    ['https://api.cerebras.ai/v1', false],
    ['https://openrouter.ai/api/v1', false],
    ['https://notdeepseek.com/v1', false],
    ['http://gpu-box.lan:8000/v1', false],
    ['not a url', false],
  ])('%s → %s', (baseURL, expected) => {
    expect(sendsReasoningByDefault({ compatible: true, baseURL })).toBe(expected);
  });

  it('never sends reasoning to OpenAI, whatever the URL', () => {
    expect(sendsReasoningByDefault({ compatible: false, baseURL: 'http://localhost:8080/v1' })).toBe(false);
    expect(sendsReasoningByDefault({ compatible: false, baseURL: undefined })).toBe(false);
  });
});
