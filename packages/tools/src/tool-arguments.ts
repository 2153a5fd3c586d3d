import { jsonrepair } from 'jsonrepair';

/** The outcome of decoding a tool call's argument text. */
export type ParsedArguments = { ok: true; value: unknown; repaired: boolean } | { ok: false; message: string };

/**
 * Decodes a tool call's arguments from the JSON text a model wrote. Empty text means no arguments (`{}`).
 * Broken JSON gets one repair attempt with jsonrepair (models often drop a closing brace or quote a key
 * badly); if that fails too, the result says why so the model can correct its call. Never throws.
 */
export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { ok: true, value: {}, repaired: false };
  try {
    return { ok: true, value: JSON.parse(text), repaired: false };
  } catch (error) {
    try {
      const repaired: unknown = JSON.parse(jsonrepair(text));
      // jsonrepair turns any prose into a JSON string; only a repair that yields an object is a repair.
      if (typeof repaired === 'object' && repaired !== null && !Array.isArray(repaired)) {
        return { ok: true, value: repaired, repaired: true };
      }
    } catch {
      // Reported below with the original parse error, which says more about the text the model wrote.
    }
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `the arguments are not valid JSON (${reason}); send them as one JSON object` };
  }
}
