// Throughput of the streaming XML <tool> parser (@agentloop/tools, src/xml) on 1 MB and 10 MB of model
// output fed in chunks of 1 byte, 16 bytes and 64 KB. Prints a Markdown table of MB/s per case and the
// 10 MB / 1 MB time ratio (about 10 when the cost is linear in the input).
// Then a non-streamed response: 1, 4 and 16 MB of small tool blocks fed as one whole text, with JSON
// bodies and with XML-element bodies, and the 16 MB / 1 MB time ratio (about 16 when linear).
//
// Build first: npx turbo run build --filter=@agentloop/tools
// Run:         node bench/xml-parser.bench.mjs

import { performance } from 'node:perf_hooks';
import { XmlToolParser } from '../packages/tools/dist/xml/index.js';

const MB = 1024 * 1024;
const SIZES = [1 * MB, 10 * MB];
const CHUNK_SIZES = [1, 16, 64 * 1024];

// A fixed-seed generator, so that every run measures the same text.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS =
  'the model reads a file and then writes the change it needs before it calls the next tool with care ' +
  'because every step of the loop costs tokens time and money so it plans ahead (x > 3, y = 2).';

function prose(next, length) {
  const words = WORDS.split(' ');
  let text = '';
  while (text.length < length) text += `${words[Math.floor(next() * words.length)]}${next() < 0.1 ? '.\n' : ' '}`;
  return text;
}

/** Prose only, with no tag and no `<` at all. */
function plainText(size) {
  return prose(random(1), size).slice(0, size);
}

/** Prose with a thinking section and a tool block (small or with a file's content) every ~2 KB. */
function taggedText(size) {
  const next = random(2);
  const parts = [];
  let length = 0;
  let calls = 0;
  while (length < size) {
    const content = prose(next, next() < 0.2 ? 1500 : 40).replace(/\n/g, '\\n');
    const part =
      `${prose(next, 1200)} for (let i = 0; i<10; i++) a<b>c\n` +
      `<thinking>I should read it first: if a<b then c > d.</thinking>\n\n` +
      `<tool>\n{"server_name": "local", "tool_name": "write_file", "arguments": {"path": "src/a.ts", "content": "${content}"}}\n</tool>\n`;
    parts.push(part);
    length += part.length;
    calls++;
  }
  return { text: parts.join(''), calls };
}

function run(text, chunkSize) {
  const parser = new XmlToolParser();
  let calls = 0;
  const count = (events) => {
    for (const event of events) if (event.type === 'tool-call') calls++;
  };
  const start = performance.now();
  for (let offset = 0; offset < text.length; offset += chunkSize)
    count(parser.feed(text.slice(offset, offset + chunkSize)));
  count(parser.flush());
  return { ms: performance.now() - start, calls };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Median time of a few samples. A fast case is parsed several times per sample (at least ~25 ms of
 * work), so that the timer's resolution does not decide the result; the slow 1-byte cases on 10 MB get
 * fewer samples, to keep the script short.
 */
function measure(text, chunkSize, expectedCalls) {
  const first = run(text, chunkSize);
  if (first.calls !== expectedCalls) throw new Error(`expected ${expectedCalls} tool calls, got ${first.calls}`);
  const repetitions = Math.max(1, Math.ceil(25 / Math.max(first.ms, 0.001)));
  const samples = chunkSize === 1 && text.length > MB ? 3 : 5;
  const times = [];
  for (let sample = 0; sample < samples; sample++) {
    let total = 0;
    for (let repetition = 0; repetition < repetitions; repetition++) total += run(text, chunkSize).ms;
    times.push(total / repetitions);
  }
  return median(times);
}

const corpora = SIZES.map((size) => {
  const tagged = taggedText(size);
  return {
    size,
    cases: [
      { name: 'prose, no tags', text: plainText(size), calls: 0 },
      { name: 'prose + `<tool>` blocks + thinking', text: tagged.text, calls: tagged.calls },
    ],
  };
});

// Warm-up: lets V8 optimise the parser before anything is timed.
for (const { text } of corpora[0].cases) for (const chunkSize of CHUNK_SIZES) run(text.slice(0, MB / 4), chunkSize);

const rows = [];
for (const [caseIndex, { name }] of corpora[0].cases.entries()) {
  for (const chunkSize of CHUNK_SIZES) {
    const times = corpora.map(({ cases }) => {
      const { text, calls } = cases[caseIndex];
      return { bytes: text.length, ms: measure(text, chunkSize, calls) };
    });
    const [small, large] = times;
    rows.push({
      name,
      chunk: chunkSize >= 1024 ? `${chunkSize / 1024} KB` : `${chunkSize} B`,
      small: small.bytes / MB / (small.ms / 1000),
      large: large.bytes / MB / (large.ms / 1000),
      ratio: large.ms / small.ms,
    });
  }
}

console.log(`Node ${process.version}, median of 5 samples (3 for 1-byte chunks of 10 MB)\n`);
console.log('| text | chunk | 1 MB (MB/s) | 10 MB (MB/s) | time 10 MB / 1 MB |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${row.chunk} | ${row.small.toFixed(1)} | ${row.large.toFixed(1)} | ${row.ratio.toFixed(2)} |`,
  );
}

// One whole text: the case of a response that was not streamed. Every block sits in one string, so a
// search near one block that runs on to the end of the text makes the cost quadratic.
const WHOLE_SIZES = [1 * MB, 4 * MB, 16 * MB];
const BLOCK_BODIES = {
  'JSON body': (index) =>
    `{"tool_name": "write_file", "arguments": {"path": "src/a${index}.ts", "content": "if (a < b && c) x++;"}}`,
  'XML-element body': (index) =>
    `<tool_name>write_file</tool_name><arguments><path>src/a${index}.ts</path>` +
    '<content><![CDATA[if (a < b && c) x++;]]></content></arguments>',
};

function wholeText(size, body) {
  const parts = [];
  let length = 0;
  while (length < size) {
    const part = `Now the next file, as x > 3:\n<tool>\n${body(parts.length)}\n</tool>\n`;
    parts.push(part);
    length += part.length;
  }
  return { text: parts.join(''), calls: parts.length };
}

const wholeRows = [];
for (const [name, body] of Object.entries(BLOCK_BODIES)) {
  run(wholeText(MB / 4, body).text, MB); // warm-up
  const times = WHOLE_SIZES.map((size) => {
    const { text, calls } = wholeText(size, body);
    return { bytes: text.length, ms: measure(text, text.length, calls) };
  });
  wholeRows.push({ name, times });
}

console.log('\nOne whole text (a response that was not streamed), median of 5 samples\n');
console.log('| blocks | 1 MB (MB/s) | 4 MB (MB/s) | 16 MB (MB/s) | time 16 MB / 1 MB |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const { name, times } of wholeRows) {
  const speeds = times.map(({ bytes, ms }) => (bytes / MB / (ms / 1000)).toFixed(1));
  console.log(`| ${name} | ${speeds.join(' | ')} | ${(times[2].ms / times[0].ms).toFixed(2)} |`);
}
