/**
 * Secret masking for every string that leaves the process: log lines, error messages, provider
 * responses, listings. Two nets: the exact values of every secret the process resolved, and
 * patterns for secrets it never saw (keys in a provider's error text, passwords in URLs).
 */
export const MASK = '***';

const knownSecrets = new Set<string>();

/** Remembers a resolved secret so that it is masked wherever it appears later. */
export function registerSecret(value: string | null | undefined): void {
  // Very short values would mask ordinary words; a real key or password is longer.
  if (value && value.length >= 4) knownSecrets.add(value);
}

const PATTERNS: [RegExp, string][] = [
  [/\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g, MASK], // provider API keys
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${MASK}`],
  // scheme://user:pass@ (a scheme of at most 32 characters: unbounded, a long run of letters and
  // dashes with no `://` was rescanned from every word start, time quadratic in its length)
  [/(\b[a-z][a-z0-9+.-]{0,31}:\/\/[^:/?#@\s]*:)([^@/\s]+)@/gi, `$1${MASK}@`],
  [
    // A name may be prefixed (client_secret, x-api-key, refresh_token, aws_secret_access_key);
    // the separator must follow the name at once, so `max_tokens: 1200` is left alone. At most
    // three prefix words, for the same reason as the scheme's bound above.
    /\b((?:[a-z0-9]+[_-]){0,3}(?:password|passwd|pwd|api[_-]?key|secret|token|private[_-]?key|access[_-]?key))(["']?\s*[:=]\s*["']?)([^\s"',;&}]+)/gi,
    `$1$2${MASK}`,
  ],
];

/**
 * The patterns as one case-insensitive test, so it matches every string some pattern matches (and
 * more): a string it misses is left as it is without running the replacements one by one. A run's
 * trace redacts every one of its strings, nearly all plain.
 */
const MAY_MATCH = new RegExp(PATTERNS.map(([re]) => `(?:${re.source})`).join('|'), 'i');

export function redact(text: string): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  if (!MAY_MATCH.test(out)) return out;
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  return out;
}

/**
 * Masks only the exact secrets the process resolved, none of the patterns: for text that is data
 * (cells of a result), where a pattern would change values that merely look like a key.
 */
export function maskKnownSecrets(text: string): string {
  let out = text;
  for (const secret of knownSecrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/** Length of the longest secret the process resolved (0 when none): how far a secret may reach. */
export function longestKnownSecret(): number {
  let n = 0;
  for (const secret of knownSecrets) n = Math.max(n, secret.length);
  return n;
}

/**
 * Length of the longest end of `text` that is the beginning of a known secret: text a stream must
 * hold back, since what comes next may complete the secret.
 */
export function knownSecretPrefixLength(text: string): number {
  let held = 0;
  for (const secret of knownSecrets) {
    for (let k = Math.min(secret.length - 1, text.length); k > held; k--) {
      if (text.endsWith(secret.slice(0, k))) {
        held = k;
        break;
      }
    }
  }
  return held;
}

/** The largest cut at or before `at` that falls inside no occurrence of a known secret. */
export function cutOutsideKnownSecrets(text: string, at: number): number {
  let cut = Math.min(at, text.length);
  for (let moved = true; moved;) {
    moved = false;
    for (const secret of knownSecrets) {
      for (let i = text.indexOf(secret, Math.max(0, cut - secret.length + 1)); i !== -1 && i < cut;) {
        if (i + secret.length > cut) {
          cut = i;
          moved = true;
          break;
        }
        i = text.indexOf(secret, i + 1);
      }
    }
  }
  return cut;
}

/** Redacts every string inside a JSON-like value (for provider responses and audit records). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}
