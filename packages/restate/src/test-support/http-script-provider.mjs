// The workers' model: a provider (spec contract v2) that asks the test's control server what to answer,
// over HTTP on 127.0.0.1, so that the test process scripts the model and counts its requests while the
// agent runs in a worker process that the test may SIGKILL.

/** @implements {import('@agentloop/spec').LLMProvider} */
export class HttpScriptProvider {
  specificationVersion = 'v2';
  id = 'http-script';
  capabilities = {
    modelId: 'scripted-model',
    nativeTools: true,
    parallelToolCalls: false,
    stopSequences: false,
    reasoning: false,
    contextWindow: 100_000,
  };

  /** @param {{ url: string; sessionId: string; worker: string }} options */
  constructor(options) {
    this.options = options;
  }

  /** @param {import('@agentloop/spec').ModelRequest} request */
  async *stream(request) {
    const { url, sessionId, worker } = this.options;
    const response = await fetch(`${url}/model`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, worker, messages: request.messages }),
      signal: request.signal,
    });
    if (!response.ok) throw new Error(`control server: ${response.status} ${await response.text()}`);
    const { chunks } = await response.json();
    yield chunks;
  }
}
