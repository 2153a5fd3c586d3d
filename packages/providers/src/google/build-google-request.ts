import type { ModelRequest, ModelSettings, ReasoningEffort, ToolDefinition } from '@agentloop/spec';
import type {
  Content,
  FunctionCallingConfigMode,
  FunctionDeclaration,
  GenerateContentConfig,
  ThinkingConfig,
} from '@google/genai';
import { memoizeByToolList } from '../messages/index.js';
import type { ModelInfo } from '../models/index.js';
import { toGoogleContents } from './to-google-contents.js';

/** The arguments of one `generateContent` call, without the abort signal and HTTP options. */
export interface GoogleRequest {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
}

/** What shapes a Gemini request besides the ModelRequest. */
export interface GoogleRequestSettings {
  model: string;
  modelInfo: ModelInfo;
}

/** The Gemini API takes at most five stop sequences. */
const MAX_STOP_SEQUENCES = 5;

type ThinkingEffort = Exclude<ReasoningEffort, 'none'>;

/** Thinking tokens per effort for the Gemini 2.5 models, which take a budget (clamped to the model's range). */
const BUDGET_BY_EFFORT: Readonly<Record<ThinkingEffort, number>> = {
  minimal: 1_024,
  low: 2_048,
  medium: 8_192,
  high: 16_384,
  xhigh: 24_576,
  max: 32_768,
};

/** Gemini 3's thinking levels: the Pro models know only LOW and HIGH, Flash also MINIMAL and MEDIUM. */
const FLASH_LEVEL: Readonly<Record<ReasoningEffort, string>> = {
  none: 'MINIMAL',
  minimal: 'MINIMAL',
  low: 'LOW',
  medium: 'MEDIUM',
  high: 'HIGH',
  xhigh: 'HIGH',
  max: 'HIGH',
};

/** Builds the arguments of a `generateContent` call from a ModelRequest. */
export function buildGoogleRequest(request: ModelRequest, settings: GoogleRequestSettings): GoogleRequest {
  const name = modelName(settings.model);
  const { systemText, contents } = toGoogleContents(request.messages, {
    requiresThoughtSignatures: requiresThoughtSignatures(name),
  });
  const system = [request.systemPrompt, ...systemText].filter((text) => text !== '').join('\n\n');
  const model = request.settings ?? {};
  const config: GenerateContentConfig = {};
  if (system !== '') {
    // Gemma on the Gemini API rejects a system instruction ("Developer instruction is not enabled"): it
    // reads the instructions at the start of the first user turn instead.
    if (name.startsWith('gemma-')) prependToFirstUserTurn(contents, system);
    else config.systemInstruction = system;
  }
  if (request.tools.length > 0) {
    config.tools = [{ functionDeclarations: functionDeclarations(request.tools) }];
    config.toolConfig = {
      functionCallingConfig: { mode: FUNCTION_CALLING_MODE[request.toolChoice] as FunctionCallingConfigMode },
    };
  }
  if (model.maxTokens !== undefined) config.maxOutputTokens = model.maxTokens;
  if (model.temperature !== undefined) config.temperature = model.temperature;
  if (model.topP !== undefined) config.topP = model.topP;
  if (request.stopSequences?.length) config.stopSequences = request.stopSequences.slice(0, MAX_STOP_SEQUENCES);
  const thinkingConfig = settings.modelInfo.reasoning ? planThinking(name, model) : undefined;
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  return { model: settings.model, contents, config };
}

/** Gemini 3 and later check the thought signatures of function calls sent back; 1.x and 2.x do not. */
export function requiresThoughtSignatures(name: string): boolean {
  return name.startsWith('gemini-') && !/^gemini-[12](?:\.|-)/.test(name);
}

const FUNCTION_CALLING_MODE = { auto: 'AUTO', required: 'ANY', none: 'NONE' } as const satisfies Record<
  ModelRequest['toolChoice'],
  string
>;

const functionDeclarations = memoizeByToolList((tools: readonly ToolDefinition[]): FunctionDeclaration[] =>
  tools.map((tool) => {
    // The API takes JSON Schema as it is under `parametersJsonSchema`, but not the `$schema` marker.
    const { $schema: _marker, ...schema } = tool.inputSchema;
    return { name: tool.name, description: tool.description, parametersJsonSchema: schema };
  }),
);

/**
 * Thought summaries are always asked for (`includeThoughts`), so the agent can show the model's reasoning.
 * Gemini 3 takes a `thinkingLevel` for an effort; Gemini 2.5 a `thinkingBudget` (Pro cannot stop thinking:
 * 128 tokens is its least). Without a setting the model thinks as it decides.
 */
function planThinking(name: string, settings: ModelSettings): ThinkingConfig {
  const { reasoningEffort: effort, thinkingBudgetTokens: budget } = settings;
  const config: ThinkingConfig = { includeThoughts: true };
  const pro = name.includes('-pro');
  if (requiresThoughtSignatures(name)) {
    if (effort !== undefined) {
      const level = pro ? (['none', 'minimal', 'low'].includes(effort) ? 'LOW' : 'HIGH') : FLASH_LEVEL[effort];
      config.thinkingLevel = level as ThinkingConfig['thinkingLevel'];
    } else if (budget) {
      config.thinkingBudget = budget;
    }
    return config;
  }
  const requested = budget || (effort === undefined ? undefined : effort === 'none' ? 0 : BUDGET_BY_EFFORT[effort]);
  if (requested === undefined) return config;
  const [least, most] = pro ? [128, 32_768] : [0, 24_576];
  const thinkingBudget = Math.min(most, Math.max(least, requested));
  if (thinkingBudget === 0) return { thinkingBudget: 0 };
  return { ...config, thinkingBudget };
}

function prependToFirstUserTurn(contents: Content[], system: string): void {
  const index = contents.findIndex((content) => content.role === 'user');
  if (index === -1) {
    contents.unshift({ role: 'user', parts: [{ text: system }] });
    return;
  }
  const first = contents[index] as Content;
  // Copied: the converted contents are shared with later requests of the conversation.
  contents[index] = { role: 'user', parts: [{ text: system }, ...(first.parts ?? [])] };
}

/** The model's id without the API's `models/` prefix, in lower case. */
export function modelName(model: string): string {
  return model.slice(model.lastIndexOf('/') + 1).toLowerCase();
}
