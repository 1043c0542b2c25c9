/**
 * Function calls: aggregates (COUNT DISTINCT, COUNT(*)), the allow-listed scalar functions under
 * their source spellings, date parts (`EXTRACT(YEAR FROM x)`, `date_part('year', x)`, SQLite's
 * `strftime('%Y', x)`) and window functions with their PARTITION BY, ORDER BY and frame.
 */
import type { FrameBound, FrameClause, FuncCall, Node, OverArg } from 'sql-parser-cst';
import * as b from '../build';
import { isWindowFunction } from '../functions';
import type * as T from '../types';
import type { Reader } from './context';
import { orderItem, readInteger } from './order-limit';
import { AGGREGATE_NAMES, DATE_PART_UNITS, FUNCTION_ALIASES, STRFTIME_PARTS, lookup } from './names';

export function readFunction(r: Reader, node: FuncCall): T.Expr {
  if (node.name.type !== 'identifier') return r.fail(`the function ${r.text(node.name)}`);
  const name = node.name.name.toLowerCase();
  if (node.filter) r.fail('an aggregate FILTER clause');
  const argsNode = node.args?.expr;
  const distinct = Boolean(argsNode?.distinctKw);
  const rawArgs: Node[] = argsNode?.args.items ?? [];
  if (argsNode?.orderBy || argsNode?.limit) r.fail(`ORDER BY inside ${name}()`);
  if (node.over) return readWindow(r, name, rawArgs, node.over);
  if (AGGREGATE_NAMES.includes(name) && (name === 'count' || rawArgs.length === 1)) {
    return aggregate(r, name as T.Aggregate['fn'], rawArgs, distinct);
  }
  if (distinct) r.fail(`DISTINCT inside ${name}()`);
  const [first, second] = rawArgs;
  if (name === 'strftime' && rawArgs.length === 2 && first?.type === 'string_literal') {
    const part = lookup(STRFTIME_PARTS, first.value);
    // strftime returns text; the plan's date parts are integers, so the text form is kept by a cast.
    if (part) return b.cast(b.fn(part, r.expr(second!)), 'text');
  }
  if ((name === 'date_part' || name === 'datepart') && rawArgs.length === 2) {
    if (first?.type !== 'string_literal') return r.fail(`${name}() with a unit that is not a constant`);
    return readDatePart(r, first.value, second);
  }
  if (name === 'extract') r.fail('EXTRACT (use year(), month(), ...)');
  const mapped = lookup(FUNCTION_ALIASES, name);
  if (!mapped) return r.fail(`the function ${name}()`);
  return b.fn(mapped, ...rawArgs.map((a) => r.expr(a)));
}

function aggregate(r: Reader, fn: T.Aggregate['fn'], rawArgs: Node[], distinct: boolean): T.Expr {
  if (rawArgs.length === 0 || (rawArgs.length === 1 && rawArgs[0]!.type === 'all_columns')) {
    if (fn !== 'count') r.fail(`${fn}(*)`);
    return b.countStar();
  }
  if (rawArgs.length !== 1) r.fail(`${fn} with ${rawArgs.length} arguments`);
  return b.agg(fn, r.expr(rawArgs[0]!), distinct);
}

/** EXTRACT(unit FROM x) / date_part('unit', x): the plan's integer date parts. */
export function readDatePart(r: Reader, unit: string, arg: Node | undefined): T.Expr {
  const part = lookup(DATE_PART_UNITS, unit.toLowerCase());
  if (!part) r.fail(`the date part ${unit.toUpperCase()} (one of YEAR, MONTH, DAY, HOUR, MINUTE, SECOND)`);
  if (!arg) r.fail(`EXTRACT(${unit.toUpperCase()}) without a value`);
  return b.fn(part, r.expr(arg));
}

function readWindow(r: Reader, name: string, rawArgs: Node[], over: OverArg): T.Expr {
  if (!isWindowFunction(name)) r.fail(`the window function ${name}()`);
  const win = over.window;
  if (win.type !== 'paren_expr') return r.fail('a named window');
  const def = win.expr;
  if (def.baseWindowName) r.fail('a named window');
  const args = rawArgs.filter((a) => a.type !== 'all_columns').map((a) => r.expr(a));
  const partitionBy = def.partitionBy ? def.partitionBy.specifications.items.map((p) => r.expr(p)) : [];
  const orderBy = def.orderBy
    ? def.orderBy.specifications.items.map((s) => orderItem(r, s, b.select({ columns: [] })))
    : [];
  const frame = def.frame ? readFrame(r, def.frame) : null;
  return b.windowFn(name, args, { partitionBy, orderBy, frame });
}

function readFrame(r: Reader, frame: FrameClause): T.Frame {
  const unit = frame.unitKw.name.toLowerCase();
  if (unit !== 'rows' && unit !== 'range') r.fail(`a ${unit.toUpperCase()} frame`);
  if (frame.exclusion) r.fail('a frame EXCLUDE clause');
  const ext = frame.extent;
  const [start, end] =
    ext.type === 'frame_between'
      ? [frameBound(r, ext.begin), frameBound(r, ext.end)]
      : [frameBound(r, ext), { bound: 'current_row' as const, offset: null }];
  return { unit: unit === 'rows' ? 'rows' : 'range', start, end };
}

function frameBound(r: Reader, node: FrameBound): T.FrameBound {
  switch (node.type) {
    case 'frame_bound_current_row':
      return { bound: 'current_row', offset: null };
    case 'frame_bound_preceding':
    case 'frame_bound_following': {
      const dir = node.type === 'frame_bound_preceding' ? 'preceding' : 'following';
      if (node.expr.type === 'frame_unbounded') return { bound: `unbounded_${dir}`, offset: null };
      return { bound: dir, offset: readInteger(r, node.expr, 'frame offset') };
    }
    default:
      return r.fail(`the frame bound ${r.text(node)}`);
  }
}
