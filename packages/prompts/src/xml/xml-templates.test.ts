import type { ToolDefinition } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import type { PromptContext } from '../prompt-context.js';
import { xmlToolFormatTemplate, xmlToolsTemplate } from './xml-templates.js';

const readFile: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const search: ToolDefinition = {
  name: 'search',
  description: 'Search.',
  inputSchema: { type: 'object', properties: {} },
};
const xml = (tools: readonly ToolDefinition[] = [readFile]): PromptContext => ({ tools, protocol: 'xml' });

describe('xmlToolFormatTemplate', () => {
  it('shows the seed block format with a <thinking> block first', () => {
    expect(xmlToolFormatTemplate(xml())).toContain(
      [
        '<thinking>Your reasoning here</thinking>',
        '',
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

  it('states the rules: one tool per response, local server, thinking first, no tool names, explain first', () => {
    const text = xmlToolFormatTemplate(xml()) ?? '';

    expect(text).toContain('Call exactly one tool per response.');
    expect(text).toContain('"server_name" is "local" for your own tools');
    expect(text).toContain('Reason inside <thinking></thinking> tags before the tool block.');
    expect(text).toContain('Never mention tool names to the user');
    expect(text).toContain('tell the user in one short sentence why you take this step');
  });

  it('renders nothing in native mode', () => {
    expect(xmlToolFormatTemplate({ tools: [readFile], protocol: 'native' })).toBeUndefined();
  });
});

describe('xmlToolsTemplate', () => {
  it('describes each tool with its parameters and an example call', () => {
    expect(xmlToolsTemplate(xml())).toBe(
      [
        '# Tools',
        'These are the tools you can call, each with its parameters and an example call.',
        '',
        '## read_file',
        'Read a file.',
        'Parameters:',
        '- path (string, required)',
        'Example:',
        '<tool>',
        '{',
        '  "server_name": "local",',
        '  "tool_name": "read_file",',
        '  "arguments": { "path": "..." }',
        '}',
        '</tool>',
      ].join('\n'),
    );
  });

  it('lists the tools in the given order', () => {
    const text = xmlToolsTemplate(xml([search, readFile])) ?? '';

    expect(text.indexOf('## search')).toBeGreaterThan(0);
    expect(text.indexOf('## search')).toBeLessThan(text.indexOf('## read_file'));
  });

  it('gives byte-identical text for equal tool lists', () => {
    expect(xmlToolsTemplate(xml([readFile, search]))).toBe(xmlToolsTemplate(xml([{ ...readFile }, { ...search }])));
  });

  it('renders nothing in native mode or without tools', () => {
    expect(xmlToolsTemplate({ tools: [readFile], protocol: 'native' })).toBeUndefined();
    expect(xmlToolsTemplate(xml([]))).toBeUndefined();
  });
});
