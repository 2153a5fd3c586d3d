import { describe, expect, it } from 'vitest';
import type { EnvironmentSnapshot } from './format-environment-context.js';
import { formatEnvironmentContext, formatEnvironmentDiff } from './format-environment-context.js';

const full: EnvironmentSnapshot = {
  cwd: '/repo',
  approvalPolicy: 'on-request',
  sandboxMode: 'workspace-write',
  networkAccess: 'restricted',
  writableRoots: ['/repo', '/tmp'],
  shell: 'bash',
};

describe('formatEnvironmentContext', () => {
  it('renders every field as a child element, in a fixed order', () => {
    expect(formatEnvironmentContext(full)).toBe(
      [
        '<environment_context>',
        '  <cwd>/repo</cwd>',
        '  <approval_policy>on-request</approval_policy>',
        '  <sandbox_mode>workspace-write</sandbox_mode>',
        '  <network_access>restricted</network_access>',
        '  <writable_roots>',
        '    <root>/repo</root>',
        '    <root>/tmp</root>',
        '  </writable_roots>',
        '  <shell>bash</shell>',
        '</environment_context>',
      ].join('\n'),
    );
  });

  it('leaves unset fields out', () => {
    expect(formatEnvironmentContext({ shell: 'zsh' })).toBe(
      '<environment_context>\n  <shell>zsh</shell>\n</environment_context>',
    );
  });

  it('gives the empty string when no field is set', () => {
    expect(formatEnvironmentContext({})).toBe('');
  });

  it('escapes values, so a path cannot forge an element', () => {
    expect(formatEnvironmentContext({ cwd: '/a</cwd><shell>x&y' })).toContain(
      '<cwd>/a&lt;/cwd&gt;&lt;shell&gt;x&amp;y</cwd>',
    );
  });
});

describe('formatEnvironmentDiff', () => {
  it('holds only the fields that changed, with their new values', () => {
    expect(formatEnvironmentDiff(full, { ...full, cwd: '/repo/pkg', networkAccess: 'enabled' })).toBe(
      [
        '<environment_diff>',
        '  <cwd>/repo/pkg</cwd>',
        '  <network_access>enabled</network_access>',
        '</environment_diff>',
      ].join('\n'),
    );
  });

  it('gives the empty string when nothing changed, roots compared by value', () => {
    expect(formatEnvironmentDiff(full, { ...full, writableRoots: ['/repo', '/tmp'] })).toBe('');
  });

  it('renders the whole new list when the writable roots change', () => {
    expect(formatEnvironmentDiff(full, { ...full, writableRoots: ['/repo'] })).toBe(
      [
        '<environment_diff>',
        '  <writable_roots>',
        '    <root>/repo</root>',
        '  </writable_roots>',
        '</environment_diff>',
      ].join('\n'),
    );
  });

  it('renders a field that became unset as an empty element', () => {
    const { shell: _shell, ...withoutShell } = full;

    expect(formatEnvironmentDiff(full, withoutShell)).toBe(
      '<environment_diff>\n  <shell></shell>\n</environment_diff>',
    );
  });
});
