import { redactUrlCredentials } from '../verbose/redact.js';

// Past this a held tail is shown anyway (redacted as far as it goes): no URL's user-info is this long.
const MAX_HELD = 2048;
const SCHEME_CHARACTER = /[a-z0-9+.-]/i;
const SPACE = /\s/;

/**
 * Streamed text (the model's message, its thinking) with the password of every URL in it hidden for the
 * terminal, as redactUrlCredentials hides it in whole text: `postgres://u:pw@host` shows as
 * `postgres://***@host`. A URL may arrive split over several pieces (`postgres://u:p`, `w@host`), so a
 * tail that may be an unfinished one (from its `://`, or a word ending in `:` or `:/`) is held back until
 * the next piece closes it, or until `flush`; other text is shown as it arrives. Only for display: what
 * the model sees and what is stored keep the text as it was.
 */
export class StreamedUrlRedactor {
  #held = '';
  /** The scheme-like characters that end what was shown (`postgres`): a URL that goes on after them needs them to be recognised. */
  #shownTail = '';

  /** Takes a piece of the stream; returns the text that can be shown now, redacted. */
  push(text: string): string {
    const context = this.#shownTail;
    const combined = context + this.#held + text;
    const cut = Math.max(context.length, openUrlStart(combined));
    this.#held = combined.slice(cut);
    const ready = combined.slice(0, cut);
    this.#shownTail = schemeTail(ready);
    // The context was shown already; redaction keeps a URL's scheme as it is, so it keeps the context's length.
    return redactUrlCredentials(ready).slice(context.length);
  }

  /** Ends the stream: returns what was held back, redacted. */
  flush(): string {
    const context = this.#shownTail;
    const rest = context + this.#held;
    this.#held = '';
    this.#shownTail = '';
    return redactUrlCredentials(rest).slice(context.length);
  }
}

/**
 * Where the end of `text` may be a URL whose user-info is still arriving: its scheme, when `://` and an
 * authority that no `/` or white space has closed yet follow, or a scheme-like word ending in `:` or `:/`.
 * `text.length` when there is none. Linear in the last word, which is at most MAX_HELD long.
 */
function openUrlStart(text: string): number {
  let wordStart = text.length;
  while (wordStart > 0 && !SPACE.test(text.charAt(wordStart - 1))) {
    if (text.length - wordStart >= MAX_HELD) return text.length;
    wordStart--;
  }
  const word = text.slice(wordStart);
  const separator = word.lastIndexOf('://');
  let schemeEnd: number;
  if (separator !== -1) {
    if (word.includes('/', separator + 3)) return text.length;
    schemeEnd = separator;
  } else if (word.endsWith(':/') || word.endsWith(':')) {
    schemeEnd = word.lastIndexOf(':');
  } else {
    return text.length;
  }
  let schemeStart = schemeEnd;
  while (schemeStart > 0 && SCHEME_CHARACTER.test(word.charAt(schemeStart - 1))) schemeStart--;
  // Without a scheme before it, `://` starts no URL the redactor knows; what follows is held all the same.
  return wordStart + (separator !== -1 ? schemeStart : schemeStart < schemeEnd ? schemeStart : word.length);
}

/** The scheme-like characters at the end of `text`, at most 64 of them. */
function schemeTail(text: string): string {
  let start = text.length;
  while (start > 0 && text.length - start < 64 && SCHEME_CHARACTER.test(text.charAt(start - 1))) start--;
  return text.slice(start);
}
