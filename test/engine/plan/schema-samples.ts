/**
 * Sample plan nodes generated from the plan's JSON Schema (the AST definition), so tests that
 * must cover "every kind" enumerate the kinds the definition has, not a list written by hand: a
 * new kind in ast.ts shows up here without anyone adding it.
 */
import { PLAN_JSON_SCHEMA } from '../../../src/engine/plan';

type Json = Record<string, any>;

const DEFS = (PLAN_JSON_SCHEMA as Json).$defs as Record<string, Json>;

/** The name of every definition that is a node (an object with a `kind` tag), with its kind. */
export function nodeDefinitions(): { def: string; kind: string }[] {
  return Object.entries(DEFS).flatMap(([def, d]) => {
    const kind = d.properties?.kind?.enum?.[0] as string | undefined;
    return kind ? [{ def, kind }] : [];
  });
}

export function definition(def: string): Json {
  const d = DEFS[def];
  if (!d) throw new Error(`no definition ${def}`);
  return d;
}

/** The definition a `$ref` points at. */
export const refName = (ref: string): string => ref.replace('#/$defs/', '');

/**
 * One value for a property schema: `leaf(def)` decides what fills a slot that refers to another
 * definition (a whole node, or a union such as Expr); arrays get one item, nullable slots their
 * non-null branch, enums their first value.
 */
export function fill(schema: Json, leaf: (def: string) => unknown, text: () => string = () => 'x'): unknown {
  if (schema.$ref) return leaf(refName(schema.$ref as string));
  if (schema.anyOf) {
    const nonNull = (schema.anyOf as Json[]).find((s) => s.type !== 'null');
    return nonNull ? fill(nonNull, leaf, text) : null;
  }
  if (schema.enum) return (schema.enum as unknown[])[0];
  switch (schema.type) {
    case 'string':
      return text();
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [fill(schema.items as Json, leaf, text)];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties as Json).map(([k, v]) => [k, fill(v as Json, leaf, text)]),
      );
    default:
      throw new Error(`schema-samples: unhandled ${JSON.stringify(schema)}`);
  }
}

/** A property of a definition, as `Definition.property`. */
export interface Slot {
  readonly def: string;
  readonly prop: string;
  readonly schema: Json;
}

/** Every property of every object definition, `kind` tags left out. */
export function allSlots(): Slot[] {
  return Object.entries(DEFS).flatMap(([def, d]) =>
    Object.entries((d.properties ?? {}) as Record<string, Json>)
      .filter(([prop]) => prop !== 'kind')
      .map(([prop, schema]) => ({ def, prop, schema })),
  );
}

/** The branches of a property other than null. */
function nonNull(schema: Json): Json[] {
  return schema.anyOf ? (schema.anyOf as Json[]).filter((s) => s.type !== 'null') : [schema];
}

/** Properties that hold a free scalar (text, number or boolean that is not one of a closed list). */
export function scalarSlots(): Slot[] {
  return allSlots().filter((s) =>
    nonNull(s.schema).some(
      (b) => !b.enum && ['string', 'number', 'integer', 'boolean'].includes(b.type as string),
    ),
  );
}

/** Properties whose value is one of a closed list (operators, function names, join types ...). */
export function enumSlots(): Slot[] {
  return allSlots().filter((s) => nonNull(s.schema).some((b) => Array.isArray(b.enum)));
}
