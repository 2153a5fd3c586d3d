import { AgentloopError } from '@agentloop/spec';
import { describe, expect, it, vi } from 'vitest';
import { parseToolArguments } from './tool-arguments.js';

// As in an app's bundle where nothing imported jsonrepair: it cannot be required either.
vi.mock('./libraries/tool-libraries.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./libraries/tool-libraries.js')>()),
  jsonrepairLibrary: {
    load: async () => {
      throw new Error('not called');
    },
    get: () => {
      throw new AgentloopError('jsonrepair is not loaded ... `await prepareTools()` before this call loads it', {
        code: 'library_not_loaded',
      });
    },
  },
}));

describe('parseToolArguments without jsonrepair loaded', () => {
  it('says what to await, instead of blaming the model’s JSON', () => {
    expect(() => parseToolArguments("{'path': 'a.ts',}", { whole: true })).toThrow(
      expect.objectContaining({ code: 'library_not_loaded', message: expect.stringContaining('await prepareTools()') }),
    );
  });

  it('still parses valid JSON, which needs no repair', () => {
    expect(parseToolArguments('{"path": "a.ts"}')).toEqual({ ok: true, value: { path: 'a.ts' }, repaired: false });
  });
});
