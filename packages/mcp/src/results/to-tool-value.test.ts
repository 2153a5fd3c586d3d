import { isToolResult } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { toToolValue } from './to-tool-value.js';

const PNG = Buffer.alloc(3000).toString('base64');

describe('toToolValue', () => {
  it('gives text alone for a result without images', () => {
    expect(toToolValue({ content: [{ type: 'text', text: 'one' }] })).toBe('one');
  });

  it('keeps images as images, the text describing them where they stood', () => {
    const value = toToolValue({
      content: [
        { type: 'text', text: 'Here it is:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'text', text: 'That was it.' },
      ],
    });
    expect(isToolResult(value)).toBe(true);
    expect(value).toMatchObject({
      text: 'Here it is:\n\n[image: image/png, 2.9 KB]\n\nThat was it.',
      images: [{ mediaType: 'image/png', data: PNG }],
    });
  });

  it('describes audio only, and leaves out an image whose type or data is unusable', () => {
    expect(toToolValue({ content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] })).toBe(
      '[audio: audio/wav, 3 bytes]',
    );
    expect(toToolValue({ content: [{ type: 'image', data: PNG, mimeType: 'application/octet-stream' }] })).toBe(
      '[image: application/octet-stream, 2.9 KB]',
    );
    expect(toToolValue({ content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] })).toBe(
      '[image: image/png, 8 bytes]',
    );
  });
});
