import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDirectory = fileURLToPath(new URL('../..', import.meta.url));

describe('the generated page assets', () => {
  it('are the files in src/page/assets as they are now (run node scripts/inline-page.mjs after editing them)', () => {
    const check = spawnSync(process.execPath, ['scripts/inline-page.mjs', '--check'], {
      cwd: packageDirectory,
      encoding: 'utf8',
    });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
