import { describe, expect, it } from 'vitest';
import { describeToolResultImage } from './tool-result-image.js';

describe('describeToolResultImage', () => {
  it('gives the media type and the decoded size, not the base64', () => {
    expect(describeToolResultImage({ mediaType: 'image/png', data: Buffer.alloc(3000).toString('base64') })).toBe(
      '[image: image/png, 2.9 KB]',
    );
    expect(describeToolResultImage({ mediaType: 'image/gif', data: Buffer.alloc(4).toString('base64') })).toBe(
      '[image: image/gif, 4 bytes]',
    );
    expect(
      describeToolResultImage({ mediaType: 'image/jpeg', data: Buffer.alloc(3 * 1024 * 1024).toString('base64') }),
    ).toBe('[image: image/jpeg, 3.0 MB]');
  });
});
