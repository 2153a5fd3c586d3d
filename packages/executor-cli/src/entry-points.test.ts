import { describe, expect, it } from 'vitest';

describe("the package's entry points", () => {
  it('gives an app embedding the session only what it needs, at the main entry', async () => {
    const main = await import('@agentloop/executor-cli');
    expect(Object.keys(main).sort()).toEqual([
      'CliExecutor',
      'EXIT_CODES',
      'composeAgent',
      'resolveSessionSettings',
      'runOnce',
    ]);
  });

  it("keeps the command's own pieces at ./internal, apart from the main entry", async () => {
    const internal = await import('@agentloop/executor-cli/internal');
    expect(internal.EventRenderer).toBeTypeOf('function');
    expect(internal.loadConfig).toBeTypeOf('function');
    expect(internal.builtinSlashCommands).toBeInstanceOf(Array);
    expect(Object.keys(internal)).not.toContain('CliExecutor');
  });
});
