import { describe, expect, it } from 'vitest';
import { NATIVE_TOOL_NAME, nativeToolName } from './native-tool-name.js';

describe('nativeToolName', () => {
  it('joins the server and the tool with "__"', () => {
    expect(nativeToolName('github', 'create_issue')).toBe('github__create_issue');
    expect(nativeToolName('everything', 'get-tiny-image')).toBe('everything__get-tiny-image');
  });

  it('replaces characters a provider refuses, and adds a hash so that two tools never share a name', () => {
    const dotted = nativeToolName('docs', 'search.pages');
    const underscored = nativeToolName('docs', 'search_pages');
    expect(dotted).toMatch(/^docs__search_pages_[0-9a-f]{8}$/);
    expect(underscored).toBe('docs__search_pages');
    expect(nativeToolName('docs', 'search/pages')).not.toBe(dotted);
  });

  it('never gives two (server, tool) pairs one name, even when the server name ends in "_"', () => {
    // Server names never hold "__" (the config check refuses them), but may end in "_".
    const pairs: [string, string][] = [
      ['a', '__b'],
      ['a_', '_b'],
      ['a', '_b'],
      ['a_', 'b'],
      ['a-', '_b'],
    ];
    const names = pairs.map(([server, tool]) => nativeToolName(server, tool));
    expect(new Set(names).size).toBe(pairs.length);
    expect(names[0]).toBe('a____b');
    expect(names[1]).toMatch(/^a____b_[0-9a-f]{8}$/);
    for (const name of names) expect(name).toMatch(NATIVE_TOOL_NAME);
  });

  it('shortens a name past 64 characters stably, keeping its start', () => {
    const long = `tool_${'x'.repeat(80)}`;
    const name = nativeToolName('server', long);
    expect(name).toHaveLength(64);
    expect(name).toMatch(NATIVE_TOOL_NAME);
    expect(name.startsWith('server__tool_xxx')).toBe(true);
    expect(nativeToolName('server', long)).toBe(name);
    expect(nativeToolName('server', `${long}y`)).not.toBe(name);
  });

  it('always gives a name every provider accepts', () => {
    for (const tool of ['a b', 'ünïcødé', '', 'x'.repeat(200), 'a:b:c']) {
      expect(nativeToolName('srv', tool)).toMatch(NATIVE_TOOL_NAME);
    }
  });
});
