/**
 * The few builders the configuration schema is written with, on top of TypeBox, so that one
 * definition gives the JSON Schema ajv checks, the TypeScript type of what a file holds (`Static`),
 * the defaults (`default` keywords, filled by TypeBox's Value.Default) and the type of the
 * configuration once they are filled (`Resolved`).
 */
import {
  CloneType,
  Type,
  type ObjectOptions,
  type Static,
  type TArray,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnion,
} from '@sinclair/typebox';
import { URL_RULE, type UrlRule } from './url-rule';

/** Every object of the config is closed: an unknown key is an error proposing the closest key. */
export const Closed = <T extends TProperties>(props: T, options: ObjectOptions = {}) =>
  Type.Object(props, { additionalProperties: false, ...options });

/** A string that must be a URL of the rule's schemes (checked by the validator, see url-rule.ts). */
export const Url = (rule: UrlRule, options: Record<string, unknown> = {}) =>
  Type.String({ [URL_RULE]: rule, ...options });

/** A field that may hold a secret reference (`${env:NAME}`); a reference anywhere else is an error. */
export const Secret = (options: Record<string, unknown> = {}) => Type.String({ secret: true, ...options });

/** Type-level mark of a key that has a default (`N`: the default is null); never present at run time. */
declare const DEFAULT_VALUE: unique symbol;
export type TDefault<T extends TSchema, N extends boolean = false> = TOptional<T> & {
  readonly [DEFAULT_VALUE]: N;
};

/** An optional key that resolveDefaults fills with `value` when it is absent. */
export function Default<T extends TSchema>(schema: T, value: Static<T>): TDefault<T> {
  return Type.Optional(CloneType(schema, { default: value })) as unknown as TDefault<T>;
}

/**
 * An optional key that resolveDefaults sets to null when it is absent: "none" until configured.
 * The file itself may not say null where the schema does not allow it.
 */
export function DefaultNull<T extends TSchema>(schema: T): TDefault<T, true> {
  return Type.Optional(CloneType(schema, { default: null })) as unknown as TDefault<T, true>;
}

/**
 * A union of closed objects told apart by one key (`type` of a datasource). ajv checks a value
 * against the branch its key names only (the `discriminator` keyword), so an unknown key gets one
 * hint, from that branch, instead of one per branch.
 */
export function KeyedUnion<T extends TObject[]>(tag: string, branches: [...T]): TUnion<T> {
  return Type.Union(branches, { discriminator: { propertyName: tag } }) as TUnion<T>;
}

/**
 * A key that belongs to a sibling of a keyed union (`host` in a sqlite connection): refused with a
 * message naming whose keys these are, and typed as always absent, so that code reading any
 * branch's connection may read every key.
 */
export const ForeignKey = (owner: string) => Type.Optional(Type.Never({ [FOREIGN_KEY]: owner }));
export const FOREIGN_KEY = 'notAKeyOf';

/** What a string that does not match its `pattern` should look like, said instead of the pattern. */
export const PATTERN_HINT = 'patternHint';

/**
 * The type of a value once every default is filled: a key with a default is always present (or
 * null when null is its default); any other optional key stays optional. Objects are read-only.
 */
export type Resolved<S extends TSchema> =
  S extends TObject<infer P>
    ? ResolvedObject<P>
    : S extends TArray<infer I>
      ? Resolved<I>[]
      : S extends TUnion<infer U>
        ? { [I in keyof U]: U[I] extends TSchema ? Resolved<U[I]> : never }[number]
        : Static<S>;

type DefaultedKeys<P extends TProperties> = {
  [K in keyof P]: P[K] extends { readonly [DEFAULT_VALUE]: unknown } ? K : never;
}[keyof P];

type OptionalKeys<P extends TProperties> = {
  [K in keyof P]: P[K] extends TOptional<TSchema> ? (K extends DefaultedKeys<P> ? never : K) : never;
}[keyof P];

type ResolvedValue<S extends TSchema> = S extends { readonly [DEFAULT_VALUE]: true }
  ? Resolved<S> | null
  : Resolved<S>;

type ResolvedObject<P extends TProperties> = Flatten<
  { readonly [K in Exclude<keyof P, OptionalKeys<P>>]: ResolvedValue<P[K]> } & {
    readonly [K in OptionalKeys<P>]?: ResolvedValue<P[K]>;
  }
>;

type Flatten<T> = { [K in keyof T]: T[K] } & {};
