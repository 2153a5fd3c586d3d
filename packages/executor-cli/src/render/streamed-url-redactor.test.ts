import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamedUrlRedactor } from './streamed-url-redactor.js';

function shown(pieces: readonly string[]): { text: string; partial: string[] } {
  const redactor = new StreamedUrlRedactor();
  const partial = pieces.map((piece) => redactor.push(piece));
  return { text: partial.join('') + redactor.flush(), partial };
}

describe('StreamedUrlRedactor', () => {
  it('hides the password of a URL that arrives split over pieces, and never shows any part of it', () => {
    const { text, partial } = shown([
      'Connect with postgres://',
      'app:s3cr',
      'et@db.internal:5432/app',
      ' and run it.',
    ]);

    expect(text).toBe('Connect with postgres://***@db.internal:5432/app and run it.');
    expect(partial.join('')).not.toMatch(/s3cr|app:/);
  });

  it('shows text without URLs as it arrives', () => {
    expect(shown(['Hello ', 'wor', 'ld, no links here.']).partial).toEqual(['Hello ', 'wor', 'ld, no links here.']);
  });

  it('holds back a word that ends in a colon until the next piece says whether a URL follows', () => {
    const redactor = new StreamedUrlRedactor();
    expect(redactor.push('Note:')).toBe('');
    expect(redactor.push(' it works')).toBe('Note: it works');
  });

  it('hides the password of a URL whose scheme was shown before its "://" arrived', () => {
    const { text, partial } = shown(['Use postgres', '://u:pw', '@host/db now']);
    expect(partial).toEqual(['Use postgres', '', '://***@host/db now']);
    expect(text).toBe('Use postgres://***@host/db now');
  });

  it('shows a URL without user-info once its host has ended, and the last one at flush', () => {
    const redactor = new StreamedUrlRedactor();
    expect(redactor.push('See https://example.com')).toBe('See ');
    expect(redactor.push('/docs and ')).toBe('https://example.com/docs and ');
    expect(redactor.push('mysql://root:pw@localhost')).toBe('');
    expect(redactor.flush()).toBe('mysql://***@localhost');
  });

  it('gives the same text however the stream is split', () => {
    const source = 'Use postgres://u:pw@host/db or https://me:tok@git.example/x.git, not http://plain.example.\n';
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: source.length }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const pieces = [0, ...points].map((start, index) => source.slice(start, points[index] ?? source.length));
        const { text, partial } = shown(pieces);
        expect(text).toBe('Use postgres://***@host/db or https://***@git.example/x.git, not http://plain.example.\n');
        expect(partial.join('')).not.toMatch(/pw@|tok@|u:p|me:t/);
      }),
    );
  });
});
