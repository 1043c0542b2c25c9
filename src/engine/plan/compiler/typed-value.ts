/** A literal with the type the compiler bound it as (what a dialect renders or binds). */
export interface TypedValue {
  readonly value: string | number | boolean;
  /**
   * `int32`: an integer a function takes as a count or position (ROUND's digits, SUBSTR's start),
   * bound as the 32-bit INTEGER those functions are defined for; `integer` is bound as BIGINT.
   */
  readonly type: 'integer' | 'int32' | 'float' | 'decimal' | 'text' | 'boolean' | 'date' | 'timestamp';
}
