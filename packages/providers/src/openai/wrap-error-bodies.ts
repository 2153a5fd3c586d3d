/** The fetch the OpenAI SDK calls. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Wraps a compatible server's error body in `{error: …}` when it lacks that wrapper (vLLM answers
 * `{"object": "error", "message": …}`). The OpenAI SDK only keeps the `error` member of an error body, so
 * without this the server's message — say, that the model cannot use tools — would be lost.
 * Successful responses pass through untouched.
 */
export function wrapErrorBodies(fetchFunction: FetchFunction): FetchFunction {
  return async (input, init) => {
    const response = await fetchFunction(input, init);
    if (response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const wrapped =
      typeof body === 'object' && body !== null && !('error' in body) ? JSON.stringify({ error: body }) : text;
    const headers = new Headers(response.headers);
    // The body is decoded and may have changed length.
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(wrapped, { status: response.status, statusText: response.statusText, headers });
  };
}
