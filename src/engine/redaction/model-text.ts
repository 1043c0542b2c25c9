/**
 * The length cap on text a model writes (a reason, a summary, a SQL draft, an intent...): every
 * string of a model's answer is cut at MODEL_TEXT_MAX_CHARS with a visible mark, where the answer
 * enters the run (the model gateway), so no path can carry a model's 20 MB "reason" into a
 * response, a stream, a trace or a tool result. A cut never falls inside a secret the process
 * knows, and falls at a white space when one is near, so it never leaves half of a secret that
 * redaction could no longer recognise.
 */
import { cutOutsideKnownSecrets, longestKnownSecret } from '../../config/redact';

/** Characters kept of any one string a model writes. Documented in the README (Security). */
export const MODEL_TEXT_MAX_CHARS = 16_000;

export const TRUNCATION_MARK = ` … [truncated: model text is cut at ${MODEL_TEXT_MAX_CHARS} characters]`;

/** How far back from the limit a cut may move to land on white space. */
const SPACE_WINDOW = 64;

/** Where to cut `text` (longer than `max`): at most `max`, outside known secrets, at a space if near. */
export function cutPoint(text: string, max: number): number {
  const cut = cutOutsideKnownSecrets(text, max);
  const from = Math.max(0, cut - SPACE_WINDOW);
  const space = text.slice(from, cut).search(/\s\S*$/);
  // A secret may hold white space (a password): the space must not fall inside one either.
  return space === -1 ? cut : cutOutsideKnownSecrets(text, from + space);
}

/** One model-written string, cut with the mark when it is too long. */
export function capModelText(text: string, max = MODEL_TEXT_MAX_CHARS): string {
  return text.length <= max ? text : text.slice(0, cutPoint(text, max)) + TRUNCATION_MARK;
}

/** Every string of a structured answer, capped (objects and arrays are copied only when needed). */
export function capModelAnswer<T>(value: T, max = MODEL_TEXT_MAX_CHARS): T {
  if (typeof value === 'string') return capModelText(value, max) as T;
  if (Array.isArray(value)) {
    const out = value.map((v) => capModelAnswer(v, max));
    return (out.some((v, i) => v !== value[i]) ? out : value) as T;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => [k, capModelAnswer(v, max)] as const);
    const changed = entries.some(([k, v]) => v !== (value as Record<string, unknown>)[k]);
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}

/**
 * A streamed text with the same cap: pieces pass on at once while the text is far from the cap;
 * near it they wait until the cut can be chosen as `capModelText` chooses it (seeing far enough
 * past the limit to know no secret spans the cut), then the kept part and the mark pass on.
 */
export class CappedTextStream {
  private raw = '';
  private sent = 0;
  private done = false;

  constructor(
    private readonly onText: (piece: string) => void,
    private readonly max = MODEL_TEXT_MAX_CHARS,
  ) {}

  push(piece: string): void {
    if (this.done) return;
    this.raw += piece;
    const reach = longestKnownSecret();
    if (this.raw.length > this.max + reach) return this.cut();
    // Nothing passes on that the cut, if one comes, could still want to take back.
    this.forward(Math.min(this.raw.length, this.max - 2 * reach - SPACE_WINDOW));
  }

  /** The model's text ended: what is held passes on (cut, if it crossed the limit). */
  end(): void {
    if (this.done) return;
    if (this.raw.length > this.max) return this.cut();
    this.forward(this.raw.length);
    this.done = true;
  }

  private cut(): void {
    this.forward(Math.max(this.sent, cutPoint(this.raw, this.max)));
    this.onText(TRUNCATION_MARK);
    this.done = true;
    this.raw = '';
  }

  private forward(to: number): void {
    if (to <= this.sent) return;
    this.onText(this.raw.slice(this.sent, to));
    this.sent = to;
  }
}
