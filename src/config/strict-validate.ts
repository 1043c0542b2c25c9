/**
 * Checks a value against a closed TypeBox/JSON schema and explains each problem with a path and,
 * for an unknown key, the closest valid key. Also refuses secret references outside secret fields.
 * This is the one validator of the configuration: the config file, the llm section of PUT
 * /settings/llm and a datasource added at runtime all go through it.
 */
import Ajv, { type ErrorObject } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import type { TSchema } from '@sinclair/typebox';
import type { ConfigProblem } from './config-error';
import { FOREIGN_KEY, PATTERN_HINT } from './schema-kit';
import { URL_RULE, urlProblem, type UrlRule } from './url-rule';

const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, discriminator: true });
ajv.addKeyword({ keyword: 'secret', schemaType: 'boolean' });
ajv.addKeyword({ keyword: FOREIGN_KEY, schemaType: 'string' });
ajv.addKeyword({ keyword: PATTERN_HINT, schemaType: 'string' });
ajv.addKeyword({
  keyword: URL_RULE,
  type: 'string',
  schemaType: 'object',
  errors: true,
  validate: function checkUrl(rule: UrlRule, value: string): boolean {
    const problem = urlProblem(value, rule);
    if (problem)
      (checkUrl as { errors?: Partial<ErrorObject>[] }).errors = [{ keyword: URL_RULE, message: problem }];
    return problem === null;
  },
});

interface Compiled {
  readonly validate: ReturnType<typeof ajv.compile>;
  /** The schema as ajv reads it (keyed unions as `oneOf`); error schema paths point into it. */
  readonly schema: JsonSchema;
}
const compiled = new WeakMap<TSchema, Compiled>();

/** `${env:NAME}`, `${file:/path}` or any `${provider:key}` reference. */
export const SECRET_REF = /\$\{([a-z][a-z0-9_]*):([^}]*)\}/i;

export function validateStrict(schema: TSchema, value: unknown, prefix = ''): ConfigProblem[] {
  let entry = compiled.get(schema);
  if (!entry) {
    const forAjv = keyedUnionsAsOneOf(schema);
    entry = { validate: ajv.compile(forAjv), schema: forAjv };
    compiled.set(schema, entry);
  }
  const problems: ConfigProblem[] = [];
  if (!entry.validate(value)) problems.push(...explain(entry.validate.errors ?? [], entry.schema, prefix));
  problems.push(...findMisplacedReferences(schema, value, prefix));
  return dedupe(problems);
}

type JsonSchema = any;

/**
 * ajv's `discriminator` keyword (one branch checked, chosen by the key's value) works on `oneOf`;
 * TypeBox writes every union as `anyOf`. A plain JSON copy with keyed unions rewritten.
 */
function keyedUnionsAsOneOf(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (_key, node: JsonSchema) => {
    if (node && typeof node === 'object' && node.discriminator && Array.isArray(node.anyOf)) {
      const { anyOf, ...rest } = node;
      return { ...rest, oneOf: anyOf };
    }
    return node;
  });
}

function explain(errors: ErrorObject[], root: JsonSchema, prefix: string): ConfigProblem[] {
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
    const keyed = list.find((e) => e.keyword === 'discriminator');
    if (keyed) {
      out.push(explainKeyedUnion(keyed, root, path));
      continue;
    }
    const foreignOwner = (e: ErrorObject): unknown =>
      e.keyword === 'not' ? schemaAt(root, e.schemaPath.replace(/\/not$/, ''))?.[FOREIGN_KEY] : undefined;
    const foreign = list.find((e) => foreignOwner(e) !== undefined);
    if (foreign) {
      const key = path.slice(path.lastIndexOf('.') + 1);
      const owner = String(foreignOwner(foreign));
      const object = schemaAt(root, foreign.schemaPath.replace(/\/properties\/[^/]+\/not$/, ''));
      const own = ownKeys(object?.properties);
      out.push({ path, message: `'${key}' is not a key of ${owner} (its keys: ${own.join(', ')})` });
      continue;
    }
    const additional = list.filter((e) => e.keyword === 'additionalProperties');
    const required = list.filter((e) => e.keyword === 'required');
    if (additional.length || required.length) {
      for (const e of additional) {
        const key = String((e.params as { additionalProperty: string }).additionalProperty);
        const valid = ownKeys(propertiesAt(root, e.schemaPath));
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
      if (other.length) out.push(...other.map((e) => ({ path, message: wording(e, root) })));
      else out.push({ path, message: `must be ${[...new Set(types)].join(' or ')}` });
      continue;
    }
    for (const e of list) out.push({ path, message: wording(e, root) });
  }
  return out;
}

const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

/** ajv's message, said the way a person writing YAML thinks of it where ajv's reads oddly. */
function wording(e: ErrorObject, root: JsonSchema): string {
  if (e.keyword === 'type' && (e.params as { type?: string }).type === 'boolean')
    return 'must be true or false';
  if (e.keyword === 'pattern') {
    const hint = schemaAt(root, e.schemaPath.replace(/\/[^/]*$/, ''))?.[PATTERN_HINT];
    if (typeof hint === 'string') return hint;
  }
  if (BOUNDS.has(e.keyword)) {
    const schema = schemaAt(root, e.schemaPath.replace(/\/[^/]*$/, '')) as Record<string, unknown>;
    const { minimum, maximum } = schema ?? {};
    if (typeof minimum === 'number' && typeof maximum === 'number') {
      const kind = schema.type === 'integer' ? 'an integer' : 'a number';
      return `must be ${kind} from ${minimum} to ${maximum}`;
    }
  }
  return e.message ?? 'is invalid';
}

export function unknownKeyMessage(key: string, valid: readonly string[], noun = 'key'): string {
  const hint = closestKey(key, valid);
  const suffix = hint
    ? ` (did you mean '${hint}'?)`
    : valid.length
      ? ` (valid ${noun}s: ${valid.join(', ')})`
      : '';
  return `unknown ${noun} '${key}'${suffix}`;
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

/** A keyed union whose key is missing or names no branch: say which values it may take. */
function explainKeyedUnion(e: ErrorObject, root: JsonSchema, path: string): ConfigProblem {
  const { tag, tagValue } = e.params as { tag: string; tagValue: unknown };
  const union = schemaAt(root, e.schemaPath.replace(/\/discriminator$/, '')) as { oneOf?: JsonSchema[] };
  const values = (union?.oneOf ?? []).map((b) => JSON.stringify(b?.properties?.[tag]?.const));
  if (tagValue === undefined) return { path: joinPath(path, tag), message: `missing required key '${tag}'` };
  return { path: joinPath(path, tag), message: `must be one of ${values.join(', ')}` };
}

function schemaAt(root: JsonSchema, schemaPath: string): JsonSchema {
  // schemaPath looks like '#/properties/datasources/items/oneOf/1/properties/connection/additionalProperties'.
  const parts = schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean).map(unescapePointer);
  let node = root;
  for (const p of parts) node = node?.[p];
  return node;
}

function propertiesAt(root: JsonSchema, schemaPath: string): Record<string, JsonSchema> | undefined {
  return schemaAt(root, schemaPath.replace(/\/[^/]*$/, ''))?.properties;
}

/** The keys an object may have: its properties but those of a sibling branch (foreign keys). */
function ownKeys(properties: Record<string, JsonSchema> | undefined): string[] {
  return Object.entries(properties ?? {})
    .filter(([, schema]) => !schema?.[FOREIGN_KEY])
    .map(([key]) => key);
}

function findMisplacedReferences(schema: JsonSchema, value: unknown, path: string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  visitStrings(schema, value, path, (at, text, secret) => {
    if (!secret && SECRET_REF.test(text)) {
      problems.push({
        path: at,
        message: `a secret reference is only allowed in a secret field (api_key, password, url, header values); write the value here directly`,
      });
    }
  });
  return problems;
}

/**
 * Calls `visit` with every string of `value` that its schema knows, its path, and whether it sits
 * in a secret field (`secret: true`). Keys the schema does not know, or that belong to another
 * branch of a keyed union, are skipped: the schema check reports them.
 */
export function visitStrings(
  schema: JsonSchema,
  value: unknown,
  path: string,
  visit: (path: string, text: string, secret: boolean) => void,
): void {
  if (typeof value === 'string') {
    visit(path, value, isSecretSchema(schema));
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => visitStrings(schema?.items, v, `${path}[${i}]`, visit));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const child = childSchema(schema, k, value);
      if (child !== undefined && !child[FOREIGN_KEY]) visitStrings(child, v, joinPath(path, k), visit);
    }
  }
}

function childSchema(schema: any, key: string, value: object): any {
  if (!schema) return undefined;
  const tag = schema.discriminator?.propertyName;
  if (tag) {
    // A keyed union: only the branch the value names has a say over its keys.
    const named = (value as Record<string, unknown>)[tag];
    const branch = (schema.anyOf ?? []).find((b: any) => b?.properties?.[tag]?.const === named);
    return branch ? childSchema(branch, key, value) : undefined;
  }
  for (const branch of schema.anyOf ?? []) {
    const c = childSchema(branch, key, value);
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
