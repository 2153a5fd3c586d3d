export { calculatorTool } from './agent-tools.js';
export { arrayCapacities } from './array-capacities.js';
export {
  chunksOfType,
  collectBatches,
  collectChunks,
  collectThroughSilence,
  collectUntilError,
  keptChunks,
  textOf,
  thinkingOf,
  toolCallsOf,
} from './collect-chunks.js';
export type { RecordedRequest, Responder } from './fixture-server.js';
export { FixtureServer } from './fixture-server.js';
export {
  chunkFrames,
  chunkLines,
  chunkLinesToFrames,
  rawSseFrames,
  readExchanges,
  readFixture,
  readJsonFixture,
  splitResponses,
} from './fixtures.js';
export { heapAfterGc } from './heap-after-gc.js';
export { instantSleep, modelRequest, WEATHER_TOOL } from './model-requests.js';
export { pacedFetch } from './paced-fetch.js';
export type { RecordedExchange, StreamFault } from './responders.js';
export { jsonResponse, recordedResponse, sseResponse } from './responders.js';
export type { ScriptedAnswer } from './scripted-streams.js';
export { anthropicAnswer, chatAnswer, responsesAnswer } from './scripted-streams.js';
export type { TestProviderOptions } from './test-provider-options.js';
export { testProviderOptions } from './test-provider-options.js';
export { toolLoopHistory } from './tool-loop-history.js';
export { useFixtureServer } from './use-fixture-server.js';
