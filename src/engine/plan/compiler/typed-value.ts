/** A literal with the type the compiler bound it as (what a dialect renders or binds). */
export interface TypedValue {
  readonly value: string | number | boolean;
  readonly type: 'integer' | 'float' | 'decimal' | 'text' | 'boolean' | 'date' | 'timestamp';
}
