/**
 * URLs are checked where they are given (the config file, PUT /settings/llm, POST /datasource), so
 * `base_url: "not a url"` is a problem naming the key instead of a failure at the first call. The
 * schema marks a URL field with a rule (schema-kit's `Url`); the one validator applies it.
 */
export interface UrlRule {
  /** Accepted schemes, without `://` (`http`, `postgres`). */
  readonly schemes: readonly string[];
  /** A full origin only: scheme, host and port, no path (CORS). */
  readonly origin?: boolean;
  /** Shown in the message. */
  readonly example: string;
}

export const URL_RULE = 'url';

/** A secret reference in a URL (a password) is resolved only at connect; it must not fail the parse. */
const REFERENCE = /\$\{[^}]*\}/g;

/** What is wrong with `value` as a URL of this rule (never quoting it: it may hold a password), or null. */
export function urlProblem(value: string, rule: UrlRule): string | null {
  const schemes = rule.schemes.map((s) => `${s}://`).join(' or ');
  let url: URL;
  try {
    url = new URL(value.replace(REFERENCE, 'ref'));
  } catch {
    return `must be a URL starting with ${schemes}, e.g. ${rule.example}`;
  }
  if (!rule.schemes.includes(url.protocol.slice(0, -1)) || !value.includes('://')) {
    return `must be a URL starting with ${schemes}, e.g. ${rule.example}`;
  }
  if (rule.origin && !/^[a-z][a-z0-9+.-]*:\/\/[^/\s?#@]+$/i.test(value)) {
    return `must be an origin (scheme, host and port if not the default; no path, not even a trailing /), e.g. ${rule.example}`;
  }
  return null;
}
