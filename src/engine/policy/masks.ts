/**
 * Column masks (`policies.roles.<role>.columns.mask`): a masked column may be selected, but its
 * values come back as `mask_with` (default '***') followed by their last `mask_keep` characters
 * (none by default); a value no longer than `mask_keep` shows only `mask_with`, so the mask never
 * shows a whole value. NULL stays NULL: the absence of a value is no secret a listing would keep.
 *
 * The mask is an expression compiled into the SQL (in the derived table that stands for the
 * table, table-policies.ts), so the database returns only masked values: the response's rows, the
 * Parquet artifact, its CSV and Arrow exports and anything a later clause computes from the column
 * hold the masked text, never the value. The validator refuses a masked column where it would
 * filter, join, group or sort (plan/validator), so no clause can be made to depend on the value.
 */
import { DEFAULT_MASK_WITH, type RolePolicy } from '../../config/schema';
import * as b from '../plan/build';
import type { Expr } from '../plan/types';

export interface MaskStyle {
  readonly keep: number;
  readonly with: string;
}

/** The most revealing mask of none: the masking role that keeps the fewest characters decides. */
export function maskStyleOf(policies: readonly RolePolicy[]): MaskStyle {
  const styles = policies.map((p) => ({
    keep: p.columns?.mask_keep ?? 0,
    with: p.columns?.mask_with ?? DEFAULT_MASK_WITH,
  }));
  return styles.reduce(
    (a, s) => (s.keep < a.keep ? s : a),
    styles[0] ?? { keep: 0, with: DEFAULT_MASK_WITH },
  );
}

/** The masked form of `column` (a column expression), as text. */
export function maskExpr(column: Expr, style: MaskStyle): Expr {
  const shown = b.lit(style.with, 'text');
  const whens = [{ when: b.isNull(column), then: b.lit(null) }];
  if (style.keep === 0) return b.caseWhen(null, whens, shown);
  const text = b.cast(column, 'text');
  const length = b.fn('length', text);
  return b.caseWhen(
    null,
    [...whens, { when: b.cmp('<=', length, b.lit(style.keep)), then: shown }],
    b.concat(shown, b.fn('substring', text, b.arith('+', b.arith('-', length, b.lit(style.keep)), b.lit(1)))),
  );
}
