import { build } from 'esbuild';

/**
 * Bundles `entry` into one ES module file, as an app would for Node: everything inlined, Node's built-ins
 * left to Node. The banner gives the CommonJS packages inside the bundle (tsyringe, reflect-metadata)
 * a `require` for Node's built-ins, which an ES module has no other way to offer them. A native addon
 * (better-sqlite3, for the SQLite session store) cannot be inlined: an app lists it in `external` and
 * ships it in node_modules.
 */
export async function bundleApp(entry: string, outfile: string, external: readonly string[] = []): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...external],
    banner: {
      js: "import { createRequire as bannerCreateRequire } from 'node:module'; const require = bannerCreateRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
}
