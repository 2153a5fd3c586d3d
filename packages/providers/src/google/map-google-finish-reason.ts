import type { FinishReason } from '@agentloop/spec';

// Every reason for which Google's filters held back or cut the answer.
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * A Gemini `finishReason` as a FinishReason. `STOP` is also what a stop sequence gives, and a turn that
 * called functions ends with `STOP` too: `calledTools` tells those apart.
 */
export function mapGoogleFinishReason(reason: string, calledTools: boolean): FinishReason {
  if (reason === 'STOP') return calledTools ? 'tool-calls' : 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  return FILTERED.has(reason) ? 'content-filter' : 'other';
}
