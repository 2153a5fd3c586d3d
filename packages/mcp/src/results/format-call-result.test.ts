import { describe, expect, it } from 'vitest';
import { formatCallResult } from './format-call-result.js';

describe('formatCallResult', () => {
  it('joins text blocks', () => {
    expect(
      formatCallResult({
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\n\ntwo');
  });

  it('describes images and audio by type and decoded size', () => {
    const data = Buffer.alloc(3000).toString('base64');
    expect(formatCallResult({ content: [{ type: 'image', data, mimeType: 'image/png' }] })).toBe(
      '[image: image/png, 2.9 KB]',
    );
    expect(formatCallResult({ content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] })).toBe(
      '[audio: audio/wav, 3 bytes]',
    );
  });

  it('shows resource links and embedded resources', () => {
    expect(
      formatCallResult({
        content: [
          {
            type: 'resource_link',
            name: 'README',
            uri: 'file:///r.md',
            mimeType: 'text/markdown',
            description: 'docs',
          },
          { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'body' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } },
        ],
      }),
    ).toBe(
      '[resource link: README <file:///r.md> (text/markdown, docs)]\n\n' +
        '[resource <file:///a.txt>, text/plain]\nbody\n\n' +
        '[resource <file:///b.bin>, 3 bytes of binary data]',
    );
  });

  it('gives structured content as JSON when no text came with it', () => {
    expect(formatCallResult({ content: [], structuredContent: { a: 1 } })).toBe('Structured content: {"a":1}');
    expect(formatCallResult({ content: [{ type: 'text', text: '{"a": 1}' }], structuredContent: { a: 1 } })).toBe(
      '{"a": 1}',
    );
  });

  it('says when there was no output', () => {
    expect(formatCallResult({ content: [] })).toBe('(no output)');
  });
});
