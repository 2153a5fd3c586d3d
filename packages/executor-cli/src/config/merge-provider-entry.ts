import type { ProviderEntry } from './config-schema.js';
import { isProviderType, type ProviderType } from './provider-types.js';

/**
 * What a re-pointed table keeps of the user's: settings that say what to use, never who the caller is nor
 * where the requests go. Listed rather than the credentials left out, so that a field added to the table
 * later is not inherited by a table that points elsewhere until someone decides it is safe.
 */
const KEPT_WHEN_REPOINTED = ['type', 'model'] as const satisfies readonly (keyof ProviderEntry)[];

/**
 * The user's `[providers.<name>]` table with a project file's table of the same name over it. Field by
 * field while the project's table points where the user's does; when it re-points the table (see
 * repointsProvider), the result keeps only the user's `type` and `model`: none of the user's `api_key`,
 * `api_key_env` or `headers`, which would go to a server the project chose, nor the user's `base_url`.
 */
export function mergeProviderEntry(
  name: string,
  user: ProviderEntry | undefined,
  project: ProviderEntry,
): ProviderEntry {
  if (user === undefined) return { ...project };
  if (!repointsProvider(name, user, project)) return { ...user, ...project };
  const kept: ProviderEntry = {};
  for (const key of KEPT_WHEN_REPOINTED) if (user[key] !== undefined) Object.assign(kept, { [key]: user[key] });
  return { ...kept, ...project };
}

/**
 * True when a project's table sends the provider's requests somewhere else than the user's table does: it
 * sets a `base_url` other than the user's (a trailing `/` aside), or a `type` of the other vendor's API
 * (`anthropic`, `google` and `openai` / `openai-responses` each have their own default host). Chat Completions and
 * Responses at the same URL are the same server.
 */
export function repointsProvider(name: string, user: ProviderEntry, project: ProviderEntry): boolean {
  if (project.base_url !== undefined && withoutTrailingSlash(project.base_url) !== withoutTrailingSlash(user.base_url))
    return true;
  if (project.type === undefined) return false;
  const userType = user.type ?? (isProviderType(name) ? name : undefined);
  return userType === undefined || vendorOf(project.type) !== vendorOf(userType);
}

function vendorOf(type: ProviderType): 'anthropic' | 'openai' | 'google' {
  return type === 'openai-responses' ? 'openai' : type;
}

function withoutTrailingSlash(url: string | undefined): string | undefined {
  return url?.replace(/\/+$/, '');
}
