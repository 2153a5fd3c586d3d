/**
 * Splits `provider:model` when the part before the first colon names a provider; otherwise the whole
 * text is the model (Ollama model names such as `llama3.2:3b` have colons of their own).
 */
export function splitModelReference(
  reference: string | undefined,
  isProvider: (name: string) => boolean,
): { provider?: string; model?: string } {
  if (reference === undefined) return {};
  const colon = reference.indexOf(':');
  if (colon > 0 && isProvider(reference.slice(0, colon))) {
    const model = reference.slice(colon + 1);
    return { provider: reference.slice(0, colon), ...(model ? { model } : {}) };
  }
  return { model: reference };
}
