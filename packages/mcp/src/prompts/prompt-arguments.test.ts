import { describe, expect, it } from 'vitest';
import type { McpPromptSummary } from './mcp-prompt.js';
import { parsePromptArguments } from './prompt-arguments.js';

const WEATHER: McpPromptSummary = {
  name: 'args-prompt',
  arguments: [
    { name: 'city', required: true },
    { name: 'state', required: false },
  ],
};
const USAGE = '/everything:args-prompt <city> [state]';

describe('parsePromptArguments', () => {
  it('takes positional arguments in declared order, quotes holding spaces', () => {
    expect(parsePromptArguments('"New York" NY', WEATHER, USAGE)).toEqual({ city: 'New York', state: 'NY' });
  });

  it('takes name=value in any order, and fills the rest by position', () => {
    expect(parsePromptArguments("state='New South Wales' Sydney", WEATHER, USAGE)).toEqual({
      city: 'Sydney',
      state: 'New South Wales',
    });
  });

  it('keeps a quoted word with = as a value', () => {
    expect(parsePromptArguments('"a=b"', WEATHER, USAGE)).toEqual({ city: 'a=b' });
  });

  it('says which required argument is missing, with the usage', () => {
    expect(() => parsePromptArguments('state=NY', WEATHER, USAGE)).toThrow(
      '/everything:args-prompt <city> [state]: the argument city is required.',
    );
  });

  it('names an unknown argument and lists the prompt’s', () => {
    expect(() => parsePromptArguments('town=Paris', WEATHER, USAGE)).toThrow(
      '/everything:args-prompt <city> [state]: it has no argument "town"; its arguments are city, state.',
    );
  });

  it('refuses one argument too many', () => {
    expect(() => parsePromptArguments('Paris France Europe', WEATHER, USAGE)).toThrow(
      '/everything:args-prompt <city> [state]: one argument too many (Europe); quote a value that holds spaces.',
    );
  });
});
