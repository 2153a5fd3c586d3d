import type { LLMProvider, SamplingRequest } from '@agentloop/core';
import type { SessionSettings } from '../config/index.js';
import type { ModelSwitcher } from './model-switcher.js';

/**
 * The models a session knows, as `provider:model`: the one in use, then each `[providers.<name>]` table
 * that names a model (the list an editor is offered to switch to).
 */
export function configuredModelReferences(settings: Pick<SessionSettings, 'provider' | 'config'>): string[] {
  const references = [`${settings.provider.name}:${settings.provider.model}`];
  for (const [name, entry] of Object.entries(settings.config.providers)) {
    const reference = `${name}:${entry.model}`;
    if (entry.model && !references.includes(reference)) references.push(reference);
  }
  return references;
}

/**
 * The provider a server's sampling request runs on, from its model hints: the first hint (in the server's
 * order) that a configured model's id contains, case aside (`sonnet` picks `anthropic:claude-sonnet-4-6`),
 * names the model; the session's own comes first, so a hint it matches keeps it. No match (or no hint):
 * undefined, and the session's model answers. The cost, speed and intelligence priorities are not
 * weighed: the configuration says nothing of them. Each model is built once, as `/model` would build it.
 */
export function samplingModels(
  models: readonly string[],
  build: ModelSwitcher,
): (request: SamplingRequest) => Promise<LLMProvider | undefined> {
  const built = new Map<string, Promise<LLMProvider>>();
  return async (request) => {
    for (const hint of request.modelPreferences?.hints ?? []) {
      const wanted = hint.toLowerCase();
      const model = models.find((reference) => modelPart(reference).toLowerCase().includes(wanted));
      if (model === undefined) continue;
      if (model === models[0]) return undefined;
      let provider = built.get(model);
      if (!provider) {
        provider = build(model).then((switched) => switched.provider);
        built.set(model, provider);
      }
      return provider;
    }
    return undefined;
  };
}

function modelPart(reference: string): string {
  const colon = reference.indexOf(':');
  return colon === -1 ? reference : reference.slice(colon + 1);
}
