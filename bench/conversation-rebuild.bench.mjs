// What it costs the providers to let an idle agent's converted conversation go: the conversion cache holds
// each conversation's converted copy weakly, so after a major garbage collection the next call converts the
// conversation whole instead of only the messages added since the last call. For each converter and
// history length, CPU µs of one call that converts only a step's two new messages (the cache warm) against
// one that converts the whole conversation (the cache's copy gone, as after a collection). The run is one
// synchronous task, in which no WeakRef is cleared: the warm calls always find their copy.
//
// Run: npx turbo run build && node --expose-gc bench/conversation-rebuild.bench.mjs   (or: npm run bench -- rebuild)
// Knobs (environment): LENGTHS (steps: 20,100,500), REPEAT (200 calls per measurement), ROUNDS (5).
//
// Measured 2026-11-27 on the shared 2-core dev machine (noisy), 20 steps (41 messages, the providers
// benchmark's loop): a whole conversation costs Anthropic 11 µs, Chat Completions 16 µs, Responses 114 µs
// against 2-5 µs for a step's new messages; a model call of that loop costs the client ~1,000 µs (providers
// benchmark), so a rebuild after a release is 1-2% of one call, paid once per collection, not per step.
import { toAnthropicMessages } from '../packages/providers/dist/anthropic/to-anthropic-messages.js';
import { toChatMessages } from '../packages/providers/dist/openai/chat/to-chat-messages.js';
import { toResponsesInput } from '../packages/providers/dist/openai/responses/to-responses-input.js';

if (typeof global.gc !== 'function') throw new Error('Run with `node --expose-gc`.');
const LENGTHS = (process.env.LENGTHS ?? '20,100,500').split(',').map(Number);
const REPEAT = Number(process.env.REPEAT ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const CONVERTERS = {
  anthropic: (history) => toAnthropicMessages(history),
  'openai chat': (history) => toChatMessages('System', history, { sendReasoning: false }),
  'openai responses': (history) => toResponsesInput(history),
};

/** The benchmark loop's conversation: the task, then per step a text with one `add` call and its result. */
function history(steps) {
  const messages = [
    { role: 'user', content: [{ type: 'text', text: 'Add the numbers from 1 to 20, one at a time.' }] },
  ];
  for (let n = 0; n < steps; n++) messages.push(...step(n));
  return messages;
}
function step(n) {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Adding ${n} and 1.` },
        { type: 'tool-call', toolCallId: `call_${n}`, toolName: 'add', arguments: { a: n, b: 1 } },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: `call_${n}`, toolName: 'add', content: String(n + 1), isError: false },
      ],
    },
  ];
}

const cpuUs = (work) => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return used.user + used.system;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** µs per call converting a step's new messages onto a warm cache (each conversation its own). */
function stepCall(convert, steps) {
  const conversations = Array.from({ length: REPEAT }, () => history(steps));
  for (const messages of conversations) convert(messages);
  for (const messages of conversations) messages.push(...step(steps));
  return cpuUs(() => conversations.forEach(convert)) / REPEAT;
}

/** µs per call converting a conversation the cache has no copy of. */
function wholeCall(convert, steps) {
  const conversations = Array.from({ length: REPEAT }, () => history(steps + 1));
  return cpuUs(() => conversations.forEach(convert)) / REPEAT;
}

// Warm-up: compile the converters before measuring.
for (const convert of Object.values(CONVERTERS))
  for (let round = 0; round < 20; round++) {
    stepCall(convert, 20);
    wholeCall(convert, 20);
  }

console.log(
  `\nConversation rebuild after an idle release: CPU µs per call, median of ${ROUNDS} rounds of ${REPEAT} calls; Node ${process.version}\n`,
);
console.log('| converter | steps in history | step on a warm cache µs | whole conversation µs | whole / step |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, convert] of Object.entries(CONVERTERS)) {
  for (const steps of LENGTHS) {
    const warm = [];
    const whole = [];
    for (let round = 0; round < ROUNDS; round++) {
      warm.push(stepCall(convert, steps));
      whole.push(wholeCall(convert, steps));
    }
    const [w, c] = [median(warm), median(whole)];
    console.log(`| ${name} | ${steps} | ${w.toFixed(1)} | ${c.toFixed(1)} | ${(c / w).toFixed(1)}× |`);
  }
}
