// SSE bodies in the vendors' real event formats (modelled on the recordings in src/__fixtures__), for
// scripted multi-step runs: one step per model call.

/** One scripted model answer: optional thinking, optional text, then tool calls. */
export interface ScriptedAnswer {
  thinking?: { text: string; signature: string };
  text?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  /**
   * Calls of the Responses API's own apply_patch tool, before the tool calls, in the shape of the
   * recorded `openai-apply-patch-tool.1.chunks.txt` (the diff streamed, then the whole item); Responses only.
   */
  applyPatchCalls?: Array<{ id: string; operation: { type: string; path: string; diff?: string } }>;
}

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** An Anthropic Messages stream. Tool input arrives in two pieces, as the API splits it. */
export function anthropicAnswer(answer: ScriptedAnswer, messageId = 'msg_scripted'): string[] {
  const frames = [
    frame('message_start', {
      type: 'message_start',
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  const block = (start: unknown, deltas: unknown[]) => {
    frames.push(frame('content_block_start', { type: 'content_block_start', index, content_block: start }));
    for (const delta of deltas)
      frames.push(frame('content_block_delta', { type: 'content_block_delta', index, delta }));
    frames.push(frame('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  };
  if (answer.thinking) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      { type: 'thinking_delta', thinking: answer.thinking.text },
      { type: 'signature_delta', signature: answer.thinking.signature },
    ]);
  }
  if (answer.text) block({ type: 'text', text: '' }, [{ type: 'text_delta', text: answer.text }]);
  for (const call of answer.toolCalls ?? []) {
    const input = JSON.stringify(call.arguments);
    const half = Math.floor(input.length / 2);
    block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, [
      { type: 'input_json_delta', partial_json: input.slice(0, half) },
      { type: 'input_json_delta', partial_json: input.slice(half) },
    ]);
  }
  const stopReason = answer.toolCalls?.length ? 'tool_use' : 'end_turn';
  frames.push(
    frame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 20 },
    }),
  );
  frames.push(frame('message_stop', { type: 'message_stop' }));
  return frames;
}

/** A Chat Completions stream with usage. Arguments arrive in two pieces keyed by index. */
export function chatAnswer(answer: ScriptedAnswer): string[] {
  const chunk = (delta: unknown, finishReason: string | null = null) => ({
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_727_346_178,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: answer.text ?? null })];
  (answer.toolCalls ?? []).forEach((call, index) => {
    const input = JSON.stringify(call.arguments);
    const half = Math.floor(input.length / 2);
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: input.slice(0, half) } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: input.slice(half) } }] }));
  });
  chunks.push(chunk({}, answer.toolCalls?.length ? 'tool_calls' : 'stop'));
  chunks.push({
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_727_346_178,
    model: 'gpt-4o-2024-08-06',
    choices: [],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  });
  return [...chunks.map((data) => `data: ${JSON.stringify(data)}\n\n`), 'data: [DONE]\n\n'];
}

/** A Responses API stream: reasoning (summary and encrypted content), message text, apply_patch calls, function calls. */
export function responsesAnswer(answer: ScriptedAnswer, responseId = 'resp_scripted'): string[] {
  const events: Array<Record<string, unknown>> = [];
  const output: unknown[] = [];
  const response = (status: string) => ({
    id: responseId,
    object: 'response',
    status,
    model: 'gpt-5.1',
    output,
    usage: null,
  });
  events.push({ type: 'response.created', response: response('in_progress') });
  let outputIndex = 0;
  if (answer.thinking) {
    const id = `rs_${responseId}`;
    const item = {
      id,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: answer.thinking.text }],
      encrypted_content: answer.thinking.signature,
    };
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, summary: [] } });
    events.push({
      type: 'response.reasoning_summary_part.added',
      item_id: id,
      output_index: outputIndex,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    events.push({
      type: 'response.reasoning_summary_text.delta',
      item_id: id,
      output_index: outputIndex,
      summary_index: 0,
      delta: answer.thinking.text,
    });
    events.push({ type: 'response.output_item.done', output_index: outputIndex++, item });
    output.push(item);
  }
  if (answer.text) {
    const id = `msg_${responseId}`;
    const item = {
      id,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', annotations: [], text: answer.text }],
    };
    events.push({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', content: [] },
    });
    events.push({
      type: 'response.output_text.delta',
      item_id: id,
      output_index: outputIndex,
      content_index: 0,
      delta: answer.text,
    });
    events.push({ type: 'response.output_item.done', output_index: outputIndex++, item });
    output.push(item);
  }
  for (const call of answer.applyPatchCalls ?? []) {
    const id = `apc_${call.id}`;
    const item = { id, type: 'apply_patch_call', status: 'completed', call_id: call.id, operation: call.operation };
    const started = call.operation.diff === undefined ? call.operation : { ...call.operation, diff: '' };
    events.push({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', operation: started },
    });
    if (call.operation.diff !== undefined) {
      events.push({
        type: 'response.apply_patch_call_operation_diff.delta',
        item_id: id,
        output_index: outputIndex,
        delta: call.operation.diff,
      });
      events.push({
        type: 'response.apply_patch_call_operation_diff.done',
        item_id: id,
        output_index: outputIndex,
        diff: call.operation.diff,
      });
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex++, item });
    output.push(item);
  }
  for (const call of answer.toolCalls ?? []) {
    const id = `fc_${call.id}`;
    const input = JSON.stringify(call.arguments);
    const item = {
      id,
      type: 'function_call',
      status: 'completed',
      arguments: input,
      call_id: call.id,
      name: call.name,
    };
    events.push({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', arguments: '' },
    });
    events.push({
      type: 'response.function_call_arguments.delta',
      item_id: id,
      output_index: outputIndex,
      delta: input,
    });
    events.push({ type: 'response.output_item.done', output_index: outputIndex++, item });
    output.push(item);
  }
  events.push({
    type: 'response.completed',
    response: {
      ...response('completed'),
      usage: {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 120,
      },
    },
  });
  return events.map((event, sequence) => frame(event.type as string, { ...event, sequence_number: sequence }));
}
