/**
 * OpenAI's strict structured outputs accept a subset of JSON Schema (their Structured Outputs
 * guide): an object at the root, `additionalProperties: false` and every property required on
 * every object, no composition but `anyOf`, and limits on size. A schema that breaks a rule is
 * refused with a 400, so strict mode is asked for only for schemas that keep them all; our own
 * schemas all do (a test walks every one), a plugin's may not.
 */
import type { JsonSchema } from './provider';

/** Keywords strict mode refuses (the `openai` SDK's strict-schema helper refuses the same set). */
const UNSUPPORTED = new Set([
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'prefixItems',
  'uniqueItems',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'default',
]);

export const STRICT_LIMITS = {
  /** Object properties across the whole schema. */
  properties: 5000,
  /** Nesting of objects (a $ref to a definition does not count again). */
  depth: 10,
  /** Enum values across the whole schema. */
  enumValues: 1000,
  /** Characters of property names, definition names, enum values and consts together. */
  characters: 120_000,
} as const;

type Node = Record<string, unknown>;

/** Why strict mode would refuse `schema`; empty when it accepts it. */
export function strictSchemaProblems(schema: JsonSchema): string[] {
  const problems: string[] = [];
  const root = schema;
  if (root.type !== 'object') problems.push('/: the root must be an object (not anyOf or another type)');
  let properties = 0;
  let enumValues = 0;
  let characters = 0;
  const defs = {
    ...((root.$defs as Node | undefined) ?? {}),
    ...((root.definitions as Node | undefined) ?? {}),
  };
  for (const name of Object.keys(defs)) characters += name.length;

  const visit = (node: unknown, path: string, depth: number): void => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const n = node as Node;
    for (const key of Object.keys(n))
      if (UNSUPPORTED.has(key)) problems.push(`${path}: '${key}' is not supported in strict mode`);
    const types = Array.isArray(n.type) ? n.type : [n.type];
    if (types.includes('object') || n.properties) {
      if (depth > STRICT_LIMITS.depth)
        problems.push(`${path}: objects nest deeper than ${STRICT_LIMITS.depth}`);
      const props = (n.properties as Node | undefined) ?? {};
      const names = Object.keys(props);
      properties += names.length;
      for (const name of names) characters += name.length;
      if (n.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const required = new Set((n.required as string[] | undefined) ?? []);
      for (const name of names)
        if (!required.has(name)) problems.push(`${path}/properties/${name}: every property must be required`);
      for (const name of names) visit(props[name], `${path}/properties/${name}`, depth + 1);
    }
    if (Array.isArray(n.enum)) {
      enumValues += n.enum.length;
      for (const v of n.enum) characters += String(v).length;
    }
    if (n.const !== undefined) characters += JSON.stringify(n.const).length;
    if (n.items) visit(n.items, `${path}/items`, depth);
    if (Array.isArray(n.anyOf)) {
      const firsts = new Set<string>();
      n.anyOf.forEach((branch, i) => {
        const props = (branch as Node | null)?.properties as Node | undefined;
        const first = props && Object.keys(props)[0];
        if (first) {
          const signature = `${first}:${JSON.stringify(props[first])}`;
          if (firsts.has(signature))
            problems.push(`${path}/anyOf/${i}: object branches must not share an identical first property`);
          firsts.add(signature);
        }
        visit(branch, `${path}/anyOf/${i}`, depth);
      });
    }
  };
  visit(root, '', 1);
  for (const [name, def] of Object.entries(defs)) visit(def, `/$defs/${name}`, 1);
  if (properties > STRICT_LIMITS.properties)
    problems.push(`/: ${properties} object properties (at most ${STRICT_LIMITS.properties})`);
  if (enumValues > STRICT_LIMITS.enumValues)
    problems.push(`/: ${enumValues} enum values (at most ${STRICT_LIMITS.enumValues})`);
  if (characters > STRICT_LIMITS.characters)
    problems.push(`/: ${characters} characters of names and values (at most ${STRICT_LIMITS.characters})`);
  return problems;
}

const verdicts = new WeakMap<JsonSchema, boolean>();

/** Whether to ask for strict mode for this schema (memoised: our schemas are module constants). */
export function acceptsStrict(schema: JsonSchema): boolean {
  let ok = verdicts.get(schema);
  if (ok === undefined) {
    ok = strictSchemaProblems(schema).length === 0;
    verdicts.set(schema, ok);
  }
  return ok;
}
