/**
 * Redaction of a text that leaves in pieces (the answer's `answer.delta` events): a secret split
 * across two pieces must be masked as if the text had come whole. Each piece passes on only up to
 * a point where redacting the parts apart gives what redacting them together gives, and the end
 * of the text is held back while it may still grow into a secret: the start of a known secret,
 * and the last few words (a `password:` or `Bearer` waits for its value).
 */
import { knownSecretPrefixLength, MASK, redact } from '../../config/redact';

/** Words held back at the end of the text: a key name, its separator, its value. */
const HELD_WORDS = 3;

export class StreamRedactor {
  private pending = '';

  /** The redacted text that may pass on now ('' when all of it must wait). */
  push(piece: string): string {
    this.pending += piece;
    const text = this.pending;
    let cut = wordStartBefore(text, text.length - knownSecretPrefixLength(text), HELD_WORDS);
    const whole = redact(text);
    while (cut > 0 && redact(text.slice(0, cut)) + redact(text.slice(cut)) !== whole)
      cut = wordStartBefore(text, cut, 1);
    if (cut <= 0) return '';
    this.pending = text.slice(cut);
    return redact(text.slice(0, cut));
  }

  /** The text ended: the rest, redacted; an end that is the start of a known secret is masked too. */
  flush(): string {
    const out = redact(this.pending);
    this.pending = '';
    const partial = knownSecretPrefixLength(out);
    return partial >= 4 ? out.slice(0, out.length - partial) + MASK : out;
  }

  get holding(): boolean {
    return this.pending.length > 0;
  }
}

/** The start of the `n`th last word that ends at or before `end` (0 when there are fewer). */
function wordStartBefore(text: string, end: number, n: number): number {
  let i = Math.min(end, text.length);
  for (let k = 0; k < n && i > 0; k++) {
    while (i > 0 && /\s/.test(text[i - 1]!)) i--;
    while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  }
  return i;
}
