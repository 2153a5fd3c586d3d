import { describe, expect, it } from 'vitest';
import { escapeXmlAttribute, escapeXmlText } from './escape-xml.js';

describe('escapeXmlText', () => {
  it('escapes &, < and >', () => {
    expect(escapeXmlText('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
  });

  it('escapes an existing entity again, so it reads back as the literal text', () => {
    expect(escapeXmlText('&amp;')).toBe('&amp;amp;');
  });

  it('leaves quotes alone, so JSON stays readable', () => {
    expect(escapeXmlText('{"path": "a\'b"}')).toBe('{"path": "a\'b"}');
  });
});

describe('escapeXmlAttribute', () => {
  it('escapes &, <, >, both quotes and raw whitespace controls', () => {
    expect(escapeXmlAttribute(`a&b<c>"d'\ne\tf\r`)).toBe('a&amp;b&lt;c&gt;&quot;d&apos;&#10;e&#9;f&#13;');
  });
});
