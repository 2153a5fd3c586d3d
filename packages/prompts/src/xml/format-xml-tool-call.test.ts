import { describe, expect, it } from 'vitest';
import { formatXmlToolCall } from './format-xml-tool-call.js';

describe('formatXmlToolCall', () => {
  it('writes the seed block format, with server_name "local" by default', () => {
    expect(formatXmlToolCall({ toolName: 'tool_name_here', arguments: { param: 'value' } })).toBe(
      [
        '<tool>',
        '{',
        '  "server_name": "local",',
        '  "tool_name": "tool_name_here",',
        '  "arguments": { "param": "value" }',
        '}',
        '</tool>',
      ].join('\n'),
    );
  });

  it('writes nested arguments on one line, with spaces after separators', () => {
    const block = formatXmlToolCall({ toolName: 'x', arguments: { a: [1, 'b'], c: { d: true, e: null }, f: {} } });

    expect(block).toContain('  "arguments": { "a": [1, "b"], "c": { "d": true, "e": null }, "f": {} }');
  });

  it('writes empty arguments as {}', () => {
    expect(formatXmlToolCall({ toolName: 'x', arguments: {} })).toContain('"arguments": {}\n');
  });

  it('names another server when given one', () => {
    expect(formatXmlToolCall({ toolName: 'x', arguments: {}, serverName: 'github' })).toContain(
      '"server_name": "github",',
    );
  });

  it('keeps the block parseable as JSON between the tags', () => {
    const block = formatXmlToolCall({ toolName: 'write', arguments: { text: 'line "1"\n</tool>' } });
    const body = block.slice('<tool>\n'.length, -'\n</tool>'.length);

    expect(JSON.parse(body)).toEqual({
      server_name: 'local',
      tool_name: 'write',
      arguments: { text: 'line "1"\n</tool>' },
    });
  });
});
