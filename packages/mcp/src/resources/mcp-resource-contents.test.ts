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

  it('holds a resource of several text parts to maxBytes in all, not maxBytes per part', () => {
    // Ten parts of 40 KB each: a server that splits a large resource must not get past the cap with it.
    const line = `${'x'.repeat(99)}\n`;
    const part = line.repeat(400);
    const contents = Array.from({ length: 10 }, (_, index) => ({ uri: `file:///part-${index}.txt`, text: part }));
    const text = resourceContentsText(contents, { maxBytes: 64 * 1024 });
    // The cap and a few notes (URIs, "read on" lines), far from the 400 KB of the parts together.
    expect(Buffer.byteLength(text)).toBeLessThan(64 * 1024 + 2048);
  });

  it('says in the cut part where to read on, and reads on from that part and line', () => {
    const contents = [
      { uri: 'file:///a.txt', text: 'a1\na2\n' },
      { uri: 'file:///b.txt', text: 'b1\nb2\nb3\n' },
      { uri: 'file:///c.txt', text: 'c1\n' },
    ];
    expect(resourceContentsText(contents, { maxBytes: 9 })).toBe(
      '[resource <file:///a.txt>]\na1\na2\n\n\n' +
        '[resource <file:///b.txt>]\nb1\n[line 1 of part 2 of 3, 9 bytes in 3 lines, cut at 9 bytes for all parts; read on with part 2, start_line 2.]',
    );
    expect(resourceContentsText(contents, { maxBytes: 9, part: 2, startLine: 2 })).toBe(
      '[resource <file:///b.txt>]\nb2\nb3\n[lines 2-3 of part 2 of 3, 9 bytes in 3 lines.]\n\n[resource <file:///c.txt>]\nc1\n',
    );
  });

  it('stops before a part that no longer fits, and names it to read on from', () => {
    const contents = [
      { uri: 'file:///a.txt', text: 'a1\na2\n' },
      { uri: 'file:///b.txt', text: 'b1\n' },
      { uri: 'file:///c.txt', text: 'c1\n' },
    ];
    expect(resourceContentsText(contents, { maxBytes: 7 })).toBe(
      '[resource <file:///a.txt>]\na1\na2\n\n\n' +
        "[parts 2-3 of the resource's 3 not given: its parts give 7 bytes of text at once; read on with part 2.]",
    );
    expect(resourceContentsText(contents, { part: 2, maxBytes: 7 })).toBe(
      '[resource <file:///b.txt>]\nb1\n\n\n[resource <file:///c.txt>]\nc1\n',
    );
  });

  it('says when part is past the last one', () => {
    expect(resourceContentsText([{ uri: 'file:///a.txt', text: 'a' }], { part: 2 })).toBe(
      '[part 2 is past the end of the resource: it has 1 part.]',
    );
  });

  it('cuts a long text at maxBytes, and reads on from startLine', () => {
    const contents = [{ uri: 'file:///a.txt', text: 'one\ntwo\nthree\n' }];
    expect(resourceContentsText(contents, { maxBytes: 8 })).toBe(
      "one\ntwo\n[lines 1-2 of the resource's 14 bytes in 3 lines, cut at 8 bytes; read on with start_line 3.]",
    );
    expect(resourceContentsText(contents, { maxBytes: 8, startLine: 3 })).toBe(
      "three\n[line 3 of the resource's 14 bytes in 3 lines.]",
    );
  });

  it('describes an image too large for a provider by type and size instead of attaching it', () => {
    const large = 'A'.repeat(8 * 1024 * 1024);
    expect(resourceContentsValue([{ uri: 'file:///big.png', mimeType: 'image/png', blob: large }])).toBe(
      '[resource <file:///big.png>, image/png, 6.0 MB: not attached, an image may be at most 5.0 MB]',
    );
  });

  it('says when a resource is empty', () => {
    expect(resourceContentsValue([])).toBe('(the resource is empty)');
  });
});
