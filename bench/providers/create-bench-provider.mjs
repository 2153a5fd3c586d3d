/** The provider under test, as an app would create it (built dist files). */
export async function createBenchProvider(vendor, baseURL, streaming) {
  if (vendor === 'anthropic') {
    const { AnthropicProvider } = await import('@agentloop/providers/anthropic');
    // No cache_control: the bare loop sends none either.
    return new AnthropicProvider({
      model: 'claude-sonnet-4-6',
      apiKey: 'bench',
      baseURL,
      streaming,
      promptCaching: false,
    });
  }
  const { OpenAIProvider } = await import('@agentloop/providers/openai');
  return new OpenAIProvider({
    model: 'gpt-4o',
    apiKey: 'bench',
    baseURL: `${baseURL}/v1`,
    compatible: false,
    streaming,
  });
}
