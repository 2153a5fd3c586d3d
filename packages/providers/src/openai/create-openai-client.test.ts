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
    ['http://0.0.0.0:8000/v1', true],
    ['http://LOCALHOST:11434/v1', true],
    ['http://localhost.:11434/v1', true],
    ['https://API.DeepSeek.com./v1', true],
    ['http://ollama:11434/v1', true],
    ['http://host.docker.internal:11434/v1', true],
    ['http://gpu-box.lan:8000/v1', true],
    ['http://llm.local:8000/v1', true],
    ['http://192.168.1.20:8000/v1', true],
    ['http://10.0.0.5:8000/v1', true],
    ['http://172.20.0.2:8000/v1', true],
    ['http://[fd12:3456::1]:8000/v1', true],
    ['http://[fe80::1]:8000/v1', true],
    ['http://2130706433:8080/v1', true],
    ['http://127.evil.example/v1', false],
    ['http://172.32.0.1:8000/v1', false],
    ['http://8.8.8.8/v1', false],
    ['http://[2001:db8::1]/v1', false],
    ['https://api.groq.com/openai/v1', false],
    ['https://api.cerebras.ai/v1', false],
    ['https://openrouter.ai/api/v1', false],
    ['https://notdeepseek.com/v1', false],
    ['not a url', false],
  ])('%s → %s', (baseURL, expected) => {
    expect(sendsReasoningByDefault({ compatible: true, baseURL })).toBe(expected);
  });

  it('never sends reasoning to OpenAI, whatever the URL', () => {
    expect(sendsReasoningByDefault({ compatible: false, baseURL: 'http://localhost:8080/v1' })).toBe(false);
    expect(sendsReasoningByDefault({ compatible: false, baseURL: undefined })).toBe(false);
  });
});
