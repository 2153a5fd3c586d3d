import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ConfigFile } from './config-schema.js';
import type { LoadedSkillsConfig } from './skills-schema.js';

/**
 * The `[skills]` tables of the user's and the project's file, merged: the project's `enabled` wins, the
 * folders and the disabled names add up. A folder is made absolute against the file that names it, as a
 * plugin path is; one the project names is marked, since the project's skills load only when it is trusted.
 */
export function mergeSkillsConfig(
  files: readonly (readonly [file: string | undefined, config: ConfigFile | undefined, project: boolean])[],
): LoadedSkillsConfig | undefined {
  let merged: LoadedSkillsConfig | undefined;
  for (const [file, config, project] of files) {
    const table = config?.skills;
    if (!file || !table) continue;
    merged ??= { folders: [], disabled: [] };
    if (table.enabled !== undefined) merged.enabled = table.enabled;
    for (const folder of table.folders ?? []) merged.folders.push({ path: folderPath(folder, dirname(file)), project });
    merged.disabled.push(...(table.disabled ?? []));
  }
  return merged;
}

function folderPath(folder: string, directory: string): string {
  if (folder === '~') return homedir();
  return folder.startsWith('~/') ? join(homedir(), folder.slice(2)) : resolve(directory, folder);
}
