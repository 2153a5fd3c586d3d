import { isToolResult } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { resourceContentsText, resourceContentsValue } from './mcp-resource-contents.js';

const PNG = 'iVBORw0KGgo=';

describe('resourceContentsValue', () => {
  it('gives one text part as its text', () => {
    expect(resourceContentsValue([{ uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' }])).toBe('# A');
  });

  it('gives an image blob as an image, described in the text', () => {
    const value = resourceContentsValue([{ uri: 'file:///a.png', mimeType: 'image/png', blob: PNG }]);
    expect(isToolResult(value)).toBe(true);
    expect(value).toMatchObject({
      text: '[image: image/png, 8 bytes]',
      images: [{ mediaType: 'image/png', data: PNG }],
    });
  });

  it('describes other binary data by type and size, and puts several parts under their URIs', () => {
    expect(
      resourceContentsText([
        { uri: 'file:///a.txt', text: 'alpha' },
        { uri: 'file:///b.bin', blob: 'AAAA' },
      ]),
    ).toBe(
      '[resource <file:///a.txt>]\nalpha\n\n[resource <file:///b.bin>, application/octet-stream, 3 bytes of binary data]',
    );
  });

  it('says when a resource is empty', () => {
    expect(resourceContentsValue([])).toBe('(the resource is empty)');
  });
});
