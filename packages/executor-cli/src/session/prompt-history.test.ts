import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { historyFile, PromptHistory } from './prompt-history.js';

let directory: string | undefined;
function temporary(): string {
  directory = mkdtempSync(join(tmpdir(), 'agentloop-history-'));
  return directory;
}
afterEach(() => {
  if (directory) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

describe('historyFile', () => {
  it('is agentloop/history in the XDG state directory on Linux', () => {
    expect(historyFile({ XDG_STATE_HOME: '/state' }, 'linux', '/home/me')).toBe('/state/agentloop/history');
    expect(historyFile({}, 'linux', '/home/me')).toBe('/home/me/.local/state/agentloop/history');
    // The XDG spec ignores a relative path.
    expect(historyFile({ XDG_STATE_HOME: 'state' }, 'linux', '/home/me')).toBe(
      '/home/me/.local/state/agentloop/history',
    );
  });

  it('is the file AGENTLOOP_HISTORY names, and none when it is empty', () => {
    expect(historyFile({ AGENTLOOP_HISTORY: '/tmp/h', XDG_STATE_HOME: '/state' }, 'linux', '/home/me')).toBe('/tmp/h');
    expect(historyFile({ AGENTLOOP_HISTORY: '' }, 'linux', '/home/me')).toBeUndefined();
    expect(historyFile({ AGENTLOOP_HISTORY: '' }, 'darwin', '/home/me')).toBeUndefined();
  });

  it('is in the application data directory on macOS', () => {
    expect(historyFile({}, 'darwin', '/home/me')).toMatch(/agentloop[/\\]history$/);
  });
});

describe('PromptHistory', () => {
  it('keeps the lines across sessions, oldest first', () => {
    const file = join(temporary(), 'state', 'agentloop', 'history');
    const first = new PromptHistory({ file });
    expect(first.load()).toEqual([]);
    first.add('fix the tests');
    first.add('/usage');
    expect(new PromptHistory({ file }).load()).toEqual(['fix the tests', '/usage']);
  });

  it('keeps neither blank lines, nor lines starting with a space, nor a repeat of the line before', () => {
    const file = join(temporary(), 'history');
    const history = new PromptHistory({ file });
    for (const line of ['one', '   ', ' my secret', 'one', 'two', 'one']) history.add(line);
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\none\n');
  });

  it('is readable by its user alone, also when the file was made readable by others', () => {
    const root = temporary();
    const file = join(root, 'agentloop', 'history');
    new PromptHistory({ file }).add('hello');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'agentloop')).mode & 0o777).toBe(0o700);
    chmodSync(file, 0o644);
    new PromptHistory({ file }).add('again');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('cuts the file back to the last entries once it holds twice as many', () => {
    const file = join(temporary(), 'history');
    writeFileSync(file, 'a\nb\nc\nd\n');
    const history = new PromptHistory({ file, size: 3 });
    expect(history.load()).toEqual(['b', 'c', 'd']);
    history.add('e');
    expect(readFileSync(file, 'utf8')).toBe('a\nb\nc\nd\ne\n');
    history.add('f');
    expect(readFileSync(file, 'utf8')).toBe('d\ne\nf\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('says once why it cannot write, and never throws', () => {
    const root = temporary();
    writeFileSync(join(root, 'not-a-directory'), '');
    const messages: string[] = [];
    const history = new PromptHistory({
      file: join(root, 'not-a-directory', 'history'),
      onError: (m) => messages.push(m),
    });
    history.add('one');
    history.add('two');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^cannot write the prompt history .*not-a-directory\/history \((ENOTDIR|EEXIST)\); this session keeps none\. AGENTLOOP_HISTORY= turns it off\.$/,
    );
  });
});
