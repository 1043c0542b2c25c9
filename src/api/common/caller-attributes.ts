/**
 * The caller's attributes, which row filters read as `:user.<name>` (issue 28). A trusted proxy
 * sets them in `api.attribute_header` beside the roles: `key=value` pairs separated by `;`, each
 * value URL-encoded (`region=EU;team=north%3Beast`). With `api.trust_body_role` (local testing),
 * `user_context.attributes` may carry them instead, as an object of strings. Only the names in
 * `api.attributes` are accepted: anything malformed, repeated or undeclared is a 422 naming it,
 * never a guess — an attribute that silently went missing would make its filters match nothing,
 * one that was silently renamed could match rows meant for someone else.
 */
import type { Request } from 'express';
import type { AppConfig } from '../../config/defaults';
import { EngineError } from '../../engine/errors';
import type { CallerAttributes } from '../../engine/policy/row-filters';
import { BODY_ROLE_FIELD } from './role-resolver';

export function resolveAttributes(api: AppConfig['api'], req: Request): CallerAttributes {
  const declared = api.attributes ?? [];
  if (api.attribute_header) {
    const raw = req.headers[api.attribute_header.toLowerCase()];
    const value = Array.isArray(raw) ? raw.join(';') : raw;
    if (value !== undefined && value.trim() !== '') return parseHeader(api.attribute_header, value, declared);
  }
  if (api.trust_body_role) {
    const ctx = (req.body as Record<string, unknown> | undefined)?.[BODY_ROLE_FIELD];
    const attrs = ctx && typeof ctx === 'object' ? (ctx as { attributes?: unknown }).attributes : undefined;
    if (attrs !== undefined && attrs !== null) return fromBody(attrs, declared);
  }
  return {};
}

function parseHeader(header: string, value: string, declared: readonly string[]): CallerAttributes {
  const out: Record<string, string> = {};
  for (const pair of value.split(';')) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf('=');
    if (eq < 0) throw invalid(`${header}: '${pair.trim()}' is not key=value (pairs are separated by ';')`);
    const key = pair.slice(0, eq).trim();
    let decoded: string;
    try {
      decoded = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      throw invalid(`${header}: the value of '${key}' is not URL-encoded text`);
    }
    add(out, key, decoded, header, declared);
  }
  return out;
}

function fromBody(attrs: unknown, declared: readonly string[]): CallerAttributes {
  const where = `${BODY_ROLE_FIELD}.attributes`;
  if (typeof attrs !== 'object' || Array.isArray(attrs))
    throw invalid(`${where} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(attrs as Record<string, unknown>)) {
    if (typeof v !== 'string') throw invalid(`${where}.${key} must be a string`);
    add(out, key, v, where, declared);
  }
  return out;
}

function add(
  out: Record<string, string>,
  key: string,
  value: string,
  where: string,
  declared: readonly string[],
): void {
  if (!declared.includes(key))
    throw invalid(
      `${where}: unknown attribute '${key}' (api.attributes declares: ${declared.join(', ') || 'none'})`,
    );
  if (Object.hasOwn(out, key)) throw invalid(`${where}: attribute '${key}' is given twice`);
  out[key] = value;
}

function invalid(message: string): EngineError {
  return new EngineError('REQUEST_INVALID', message);
}
