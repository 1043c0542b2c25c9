/**
 * Ids that become path segments (tenant, request, result) must be plain tokens: letters, digits,
 * `_` and `-`. That single rule is what keeps every read and write inside its tenant folder, so
 * no `.`, `..`, `/` or `\` can ever reach a path join.
 */
const PLAIN_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

export function isPlainToken(value: unknown): value is string {
  return typeof value === 'string' && PLAIN_TOKEN.test(value);
}
