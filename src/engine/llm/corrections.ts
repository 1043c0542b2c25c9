/**
 * The correction sent back when a structured answer does not match its schema: short and to the
 * point. In a union of object kinds (the plan language's expressions), the answer chose a branch
 * by its `kind`, and only that branch's errors are reported; errors are deduplicated, each with
 * its JSON path, and a misspelt name or value gets the closest valid one. A reply that is not JSON
 * is reported with the line and column where parsing stopped.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { closest } from 'fastest-levenshtein';
import type { JsonSchema } from './providers/provider';

const MAX_ERRORS = 5;
const MAX_CHARS = 1000;

// verbose: each error carries the schema node it failed, whose properties name what was meant.
const branchAjv = new Ajv({
  allErrors: true,
  verbose: true,
  strict: false,
  allowUnionTypes: true,
  validateFormats: false,
});

type Node = Record<string, unknown>;

/** Definition name -> the `kind` values its objects carry (from `properties.kind` enum or const). */
function kindsByDefinition(schema: JsonSchema): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const defs = (schema.$defs ?? {}) as Record<string, Node>;
  for (const [name, def] of Object.entries(defs)) {
    const kind = (def.properties as Node | undefined)?.kind as Node | undefined;
    const values = kind?.enum ?? (kind?.const !== undefined ? [kind.const] : null);
    if (Array.isArray(values)) out.set(name, new Set(values.map(String)));
  }
  return out;
}

const cache = new WeakMap<JsonSchema, Map<string, Set<string>>>();

function valueAt(root: unknown, pointer: string): unknown {
  if (!pointer) return root;
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The definition an error's schema path is in (`#/$defs/Column/...` -> Column). */
function definitionOf(error: ErrorObject): string | null {
  return /#\/\$defs\/([^/]+)/.exec(error.schemaPath)?.[1] ?? null;
}

function describe(error: ErrorObject, root: unknown, schema: JsonSchema, def: string | null): string {
  const path = error.instancePath || '/';
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${path}: missing property "${String(p.missingProperty)}"`;
    case 'additionalProperties': {
      const extra = String(p.additionalProperty);
      const parent = error.parentSchema?.properties as Node | undefined;
      const allowed = parent ? Object.keys(parent) : allowedProperties(schema, def ?? definitionOf(error));
      const near = allowed.length ? closest(extra, allowed) : null;
      return `${path}: unknown property "${extra}"${near ? ` (did you mean "${near}"?)` : ''}`;
    }
    case 'enum':
    case 'const': {
      const allowed = (
        (p.allowedValues as unknown[]) ?? (p.allowedValue !== undefined ? [p.allowedValue] : [])
      ).map(String);
      const got = valueAt(root, error.instancePath);
      const near = typeof got === 'string' && allowed.length ? closest(got, allowed) : null;
      return `${path}: ${JSON.stringify(got)} is not allowed${near ? ` (did you mean "${near}"?)` : allowed.length <= 12 ? ` (one of ${allowed.join(', ')})` : ''}`;
    }
    case 'type':
      return `${path}: must be ${String(p.type)}`;
    default:
      return `${path}: ${error.message ?? error.keyword}`;
  }
}

function allowedProperties(schema: JsonSchema, def: string | null): string[] {
  const defs = (schema.$defs ?? {}) as Record<string, Node>;
  const node = def ? defs[def] : schema;
  return Object.keys((node?.properties as Node | undefined) ?? {});
}

/**
 * The errors worth telling the model. The object the errors are deepest in is found; when it is
 * one of a union's kinds, it is checked again against that kind's definition alone, so only the
 * branch the answer chose speaks. Deduplicated, at most MAX_ERRORS, under MAX_CHARS.
 */
export function briefCorrection(errors: readonly ErrorObject[], value: unknown, schema: JsonSchema): string {
  let kinds = cache.get(schema);
  if (!kinds) cache.set(schema, (kinds = kindsByDefinition(schema)));
  const located = errors
    .map((e) => ({ e, at: objectWithKind(value, e.instancePath) }))
    .filter((x) => x.at !== null);
  const deepest = located.sort((a, b) => depthOf(b.at!.pointer) - depthOf(a.at!.pointer))[0]?.at ?? null;
  let lines: string[];
  if (deepest) {
    const def = [...kinds].find(([, ks]) => ks.has(deepest.kind))?.[0];
    if (!def) {
      const all = [...kinds.values()].flatMap((ks) => [...ks]);
      lines = [
        `${deepest.pointer || '/'}/kind: "${deepest.kind}" is not a kind of the schema (did you mean "${closest(deepest.kind, all)}"?)`,
      ];
    } else {
      const branchErrors = checkAgainst(schema, def, valueAt(value, deepest.pointer)).map((e) => ({
        ...e,
        instancePath: `${deepest.pointer}${e.instancePath}`,
        schemaPath: `#/$defs/${def}${e.schemaPath.replace(/^#/, '')}`,
      }));
      lines = branchErrors.length
        ? specific(branchErrors).map((e) => describe(e, value, schema, def))
        : specific(errors).map((e) => describe(e, value, schema, null));
    }
  } else {
    lines = specific(errors).map((e) => describe(e, value, schema, null));
  }
  const text = [...new Set(lines)].slice(0, MAX_ERRORS).join('; ');
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

const depthOf = (pointer: string) => (pointer.match(/\//g) ?? []).length;

/** The most specific errors: the deepest paths, unions' own summaries left out. */
function specific(errors: readonly ErrorObject[]): ErrorObject[] {
  const pool = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const deepest = Math.max(...pool.map((e) => depthOf(e.instancePath)));
  return pool.filter((e) => depthOf(e.instancePath) === deepest);
}

/** The nearest object at or above `pointer` that carries a string `kind`. */
function objectWithKind(root: unknown, pointer: string): { pointer: string; kind: string } | null {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const v = valueAt(root, p);
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Node).kind === 'string')
      return { pointer: p, kind: (v as Node).kind as string };
    if (!p) return null;
  }
}

const branchValidators = new WeakMap<JsonSchema, Map<string, ValidateFunction>>();

function checkAgainst(schema: JsonSchema, def: string, value: unknown): ErrorObject[] {
  let byDef = branchValidators.get(schema);
  if (!byDef) branchValidators.set(schema, (byDef = new Map()));
  let validate = byDef.get(def);
  if (!validate) {
    validate = branchAjv.compile({ $ref: `#/$defs/${def}`, $defs: schema.$defs });
    byDef.set(def, validate);
  }
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

/** Why a reply is not JSON, with the line and column where parsing stopped when the parser says. */
export function parseProblem(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return `the answer is not valid JSON (${message.slice(0, 200)})`;
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const column = Number(position) - before.lastIndexOf('\n');
  return `the answer is not valid JSON: ${message.split(/,? "/)[0]!.slice(0, 120)} at line ${line}, column ${column}`;
}
