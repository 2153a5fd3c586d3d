import { describe, expect, it } from 'vitest';
import { EnvironmentContext } from './environment-context.js';

const initial = { cwd: '/repo', approvalPolicy: 'on-request', shell: 'bash' };

describe('EnvironmentContext', () => {
  it('is a prompt section rendering the full block', () => {
    const environment = new EnvironmentContext(initial);

    expect(environment.id).toBe('environment-context');
    expect(environment.render()).toBe(
      '<environment_context>\n  <cwd>/repo</cwd>\n  <approval_policy>on-request</approval_policy>\n  <shell>bash</shell>\n</environment_context>',
    );
  });

  it('gives a diff block with only the changed fields', () => {
    const environment = new EnvironmentContext(initial);

    expect(environment.diff({ ...initial, cwd: '/repo/docs' })).toBe(
      '<environment_diff>\n  <cwd>/repo/docs</cwd>\n</environment_diff>',
    );
  });

  it('gives the empty string when nothing changed', () => {
    expect(new EnvironmentContext(initial).diff({ ...initial })).toBe('');
  });

  it('diffs against what the model was last told, not the initial environment', () => {
    const environment = new EnvironmentContext(initial);
    environment.diff({ ...initial, cwd: '/a' });

    expect(environment.diff({ ...initial, cwd: '/a' })).toBe('');
    expect(environment.diff(initial)).toBe('<environment_diff>\n  <cwd>/repo</cwd>\n</environment_diff>');
  });

  it('keeps rendering the initial block after a diff, so the system prompt stays byte-identical', () => {
    const environment = new EnvironmentContext(initial);
    const before = environment.render();
    environment.diff({ ...initial, cwd: '/elsewhere' });

    expect(environment.render()).toBe(before);
    expect(environment.current.cwd).toBe('/elsewhere');
    expect(environment.initial.cwd).toBe('/repo');
  });

  it('is not changed by mutating the objects it was given', () => {
    const roots = ['/repo'];
    const snapshot = { cwd: '/repo', writableRoots: roots };
    const environment = new EnvironmentContext(snapshot);
    roots.push('/tmp');
    snapshot.cwd = '/mutated';

    expect(environment.render()).toBe(
      '<environment_context>\n  <cwd>/repo</cwd>\n  <writable_roots>\n    <root>/repo</root>\n  </writable_roots>\n</environment_context>',
    );
  });
});
