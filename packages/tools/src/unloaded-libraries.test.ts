import { AgentloopError } from '@agentloop/spec';
import { describe, expect, it, vi } from 'vitest';
import { parseToolArguments } from './tool-arguments.js';
import { readXmlFields } from './xml/read-xml-fields.js';

// As in an app's bundle where nothing imported the libraries: they cannot be required either.
vi.mock('./libraries/tool-libraries.js', async (importOriginal) => {
  const notLoaded = (name: string) => ({
    load: async () => {
      throw new Error('not called');
    },
    get: () => {
      throw new AgentloopError(`${name} is not loaded ... \`await prepareTools()\` before this call loads it`, {
        code: 'library_not_loaded',
      });
    },
  });
  return {
    ...(await importOriginal<typeof import('./libraries/tool-libraries.js')>()),
    jsonrepairLibrary: notLoaded('jsonrepair'),
    fastXmlParserLibrary: notLoaded('fast-xml-parser'),
  };
});

const notLoaded = (name: string) =>
  expect.objectContaining({
    code: 'library_not_loaded',
    message: expect.stringMatching(`^${name} .*await prepareTools\\(\\)`),
  });

describe('the tools’ synchronous functions without their libraries loaded', () => {
  it('parseToolArguments says what to await, instead of blaming the model’s JSON', () => {
    expect(() => parseToolArguments("{'path': 'a.ts',}", { whole: true })).toThrow(notLoaded('jsonrepair'));
  });

  it('parseToolArguments still parses valid JSON, which needs no repair', () => {
    expect(parseToolArguments('{"path": "a.ts"}')).toEqual({ ok: true, value: { path: 'a.ts' }, repaired: false });
  });

  it('readXmlFields says what to await, instead of calling the model’s XML malformed', () => {
    expect(() => readXmlFields('<path>a.ts</path>')).toThrow(notLoaded('fast-xml-parser'));
  });
});
