// The argv every loop child takes, in this order: vendor (anthropic | openai), streaming (true | false),
// the scripted server's base URL, measured loops, warm-up loops, tool steps per loop, the request
// template JSON (the system prompt and tools the agent sends), and how many loops run at once.
export function childArgs() {
  const [vendor, streaming, baseURL, runs, warmup, toolSteps, templateJson, concurrency] = process.argv.slice(2);
  return {
    vendor,
    streaming: streaming === 'true',
    baseURL,
    runs: Number(runs),
    warmup: Number(warmup),
    toolSteps: Number(toolSteps),
    template: JSON.parse(templateJson),
    concurrency: Number(concurrency ?? 1),
  };
}

/** The task every loop is given. */
export const INPUT = 'Add the numbers step by step, then finish.';

/** The template's tools, whichever vendor's format they came in, as name, description and JSON schema. */
export function templateTools(vendor, template) {
  return template.tools.map((tool) =>
    vendor === 'anthropic'
      ? { name: tool.name, description: tool.description, inputSchema: tool.input_schema }
      : { name: tool.function.name, description: tool.function.description, inputSchema: tool.function.parameters },
  );
}

/** The template's system prompt as one string (Anthropic's comes as text blocks). */
export function templateSystem(template) {
  return typeof template.system === 'string' ? template.system : template.system.map((block) => block.text).join('');
}
