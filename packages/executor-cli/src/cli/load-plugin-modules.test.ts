import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPluginModules } from './load-plugin-modules.js';

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agentloop-plugins-'));
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

function module(name: string, source: string): string {
  const file = join(directory, name);
  writeFileSync(file, source);
  return file;
}

describe('loadPluginModules', () => {
  it('loads a plugin exported as default, and a list exported as plugin', async () => {
    const single = module('single.mjs', "export default { name: 'one', register() {} };");
    const list = module(
      'list.mjs',
      "export const plugin = [{ name: 'two', register() {} }, { name: 'three', register() {} }];",
    );
    const plugins = await loadPluginModules([single, list], directory);
    expect(plugins.map((plugin) => plugin.name)).toEqual(['one', 'two', 'three']);
  });

  it('names a module that cannot be found', async () => {
    const missing = join(directory, 'missing.mjs');
    await expect(loadPluginModules([missing], directory)).rejects.toMatchObject({
      code: 'plugin_not_found',
      message: expect.stringContaining(`Cannot load plugin ${missing}:`),
    });
  });

  it('names a module that exports no plugin', async () => {
    const wrong = module('wrong.mjs', 'export default 42;');
    await expect(loadPluginModules([wrong], directory)).rejects.toMatchObject({
      code: 'plugin_failed',
      message: `Plugin module ${wrong} does not export a plugin: export { name, register(container) } as its default export or as "plugin".`,
    });
  });
});
