/**
 * Checks a value against a closed TypeBox/JSON schema and explains each problem with a path and,
 * for an unknown key, the closest valid key. Also refuses secret references outside secret fields.
 */
import Ajv, { type ErrorObject } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import type { TSchema } from '@sinclair/typebox';
import type { ConfigProblem } from './config-error';

const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
ajv.addKeyword({ keyword: 'secret', schemaType: 'boolean' });
const compiled = new WeakMap<TSchema, ReturnType<typeof ajv.compile>>();

/** `${env:NAME}`, `${file:/path}` or any `${provider:key}` reference. */
export const SECRET_REF = /\$\{([a-z][a-z0-9_]*):([^}]*)\}/i;

export function validateStrict(schema: TSchema, value: unknown, prefix = ''): ConfigProblem[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  const problems: ConfigProblem[] = [];
  if (!validate(value)) problems.push(...explain(validate.errors ?? [], schema, prefix));
  problems.push(...findMisplacedReferences(schema, value, prefix));
  return dedupe(problems);
}

function explain(errors: ErrorObject[], root: TSchema, prefix: string): ConfigProblem[] {
  // A union reports one error per branch; keep the most specific ones (deepest schema path)
  // unless the value failed every branch at the same place, then say so once.
  const out: ConfigProblem[] = [];
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const list = byPath.get(e.instancePath) ?? [];
    list.push(e);
    byPath.set(e.instancePath, list);
  }
  for (const [instancePath, list] of byPath) {
    const path = joinPath(prefix, pointerToPath(instancePath));
    const additional = list.filter((e) => e.keyword === 'additionalProperties');
    const required = list.filter((e) => e.keyword === 'required');
    if (additional.length || required.length) {
      for (const e of additional) {
        const key = String((e.params as { additionalProperty: string }).additionalProperty);
        const valid = Object.keys(propertiesAt(root, e.schemaPath) ?? {});
        out.push({ path: joinPath(path, key), message: unknownKeyMessage(key, valid) });
      }
      for (const e of required) {
        const key = String((e.params as { missingProperty: string }).missingProperty);
        out.push({ path: joinPath(path, key), message: `missing required key '${key}'` });
      }
      continue;
    }
    const enums = list.filter((e) => e.keyword === 'const' || e.keyword === 'enum');
    if (enums.length > 1 || list.some((e) => e.keyword === 'anyOf')) {
      const allowed = enums.map((e) => JSON.stringify((e.params as { allowedValue?: unknown }).allowedValue));
      if (allowed.length) {
        out.push({ path, message: `must be one of ${allowed.join(', ')}` });
        continue;
      }
      const types = list.filter((e) => e.keyword === 'type').map((e) => (e.params as { type: string }).type);
      const other = list.filter((e) => !['type', 'anyOf'].includes(e.keyword));
      if (other.length) out.push(...other.map((e) => ({ path, message: e.message ?? 'is invalid' })));
      else out.push({ path, message: `must be ${[...new Set(types)].join(' or ')}` });
      continue;
    }
    for (const e of list) out.push({ path, message: e.message ?? 'is invalid' });
  }
  return out;
}

export function unknownKeyMessage(key: string, valid: readonly string[]): string {
  const hint = closestKey(key, valid);
  const suffix = hint
    ? ` (did you mean '${hint}'?)`
    : valid.length
      ? ` (valid keys: ${valid.join(', ')})`
      : '';
  return `unknown key '${key}'${suffix}`;
}

/** The closest valid key when it is near enough to be a likely typo. */
export function closestKey(key: string, valid: readonly string[]): string | null {
  if (!valid.length) return null;
  const best = closest(
    key.toLowerCase(),
    valid.map((v) => v.toLowerCase()),
  );
  const match = valid.find((v) => v.toLowerCase() === best) ?? null;
  if (match === null) return null;
  const d = distance(key.toLowerCase(), best);
  return d <= Math.max(2, Math.floor(best.length / 3)) ? match : null;
}

function propertiesAt(root: TSchema, schemaPath: string): Record<string, unknown> | undefined {
  // schemaPath looks like '#/properties/datasources/items/additionalProperties'.
  const parts = schemaPath.replace(/^#\//, '').split('/').slice(0, -1).map(unescapePointer);
  let node: any = root;
  for (const p of parts) node = node?.[p];
  return node?.properties;
}

function findMisplacedReferences(schema: any, value: unknown, path: string): ConfigProblem[] {
  if (typeof value === 'string') {
    if (SECRET_REF.test(value) && !isSecretSchema(schema)) {
      return [
        {
          path,
          message: `a secret reference is only allowed in a secret field (api_key, password, url, header values); write the value here directly`,
        },
      ];
    }
    return [];
  }
  if (Array.isArray(value)) {
    const items = schema?.items;
    return value.flatMap((v, i) => findMisplacedReferences(items, v, `${path}[${i}]`));
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => {
      const child = childSchema(schema, k);
      return child === undefined ? [] : findMisplacedReferences(child, v, joinPath(path, k));
    });
  }
  return [];
}

function childSchema(schema: any, key: string): any {
  if (!schema) return undefined;
  for (const branch of schema.anyOf ?? []) {
    const c = childSchema(branch, key);
    if (c !== undefined) return c;
  }
  if (schema.properties?.[key]) return schema.properties[key];
  if (schema.patternProperties) return Object.values(schema.patternProperties)[0];
  if (typeof schema.additionalProperties === 'object') return schema.additionalProperties;
  return undefined;
}

function isSecretSchema(schema: any): boolean {
  if (!schema) return false;
  if (schema.secret === true) return true;
  return (schema.anyOf ?? []).some((s: any) => isSecretSchema(s));
}

export function joinPath(prefix: string, key: string): string {
  if (!key) return prefix;
  if (key.startsWith('[')) return `${prefix}${key}`;
  return prefix ? `${prefix}.${key}` : key;
}

function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map(unescapePointer)
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : joinPath(acc, part)), '');
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const k = `${p.path}\u0000${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
