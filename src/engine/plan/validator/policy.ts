/**
 * Role policies (config `policies.roles`): which datasources, tables (`<datasource>.<table>`) and
 * columns (`<datasource>.<table>.<column>`) each role may read. No roles section: every role reads
 * everything. With one, a role not listed reads nothing, and a caller reads what ANY of its roles
 * may read. Within a role, a deny always wins over an allow; an allow list, when present, is the
 * whole of what that role may read at that level. Names compare case-insensitively.
 *
 * Row filters and masks (`rows`, `columns.mask`) narrow what a role reads of a table it may read;
 * the rewrite that applies them lives in engine/policy. What this view decides of them is the
 * part the validator needs: which of the caller's roles read a table (and whether each filters
 * its rows), and whether a column comes back masked in some row, so that it may be selected but
 * not used to filter, join, group or sort.
 */
import type { RolePolicy } from '../../../config/schema';

export type RolePolicies = Readonly<Record<string, RolePolicy>>;

/** One of the caller's roles that may read a table, and whether it sees only some of its rows. */
export interface TableReader {
  readonly role: string;
  readonly policy: RolePolicy;
  /** The role has a row filter on this table (`rows`). */
  readonly filtered: boolean;
}

export class PolicyView {
  constructor(
    private readonly policies: RolePolicies | null | undefined,
    private readonly roles: readonly string[],
    private readonly datasourceId: string,
  ) {}

  private get active(): RolePolicy[] | null {
    if (!this.policies || Object.keys(this.policies).length === 0) return null;
    return this.roles.map((r) => this.policies![r]).filter((p): p is RolePolicy => !!p);
  }

  canReadDatasource(): boolean {
    const active = this.active;
    if (active === null) return true;
    return active.some((p) => this.datasourceOk(p));
  }

  canReadTable(table: string): boolean {
    const active = this.active;
    if (active === null) return true;
    return active.some((p) => this.datasourceOk(p) && this.tableOk(p, table));
  }

  canReadColumn(table: string, column: string): boolean {
    const active = this.active;
    if (active === null) return true;
    return active.some(
      (p) => this.datasourceOk(p) && this.tableOk(p, table) && this.columnOk(p, table, column),
    );
  }

  /**
   * The caller's roles that may read `table` (datasource and table rules), each once, in the order
   * the caller gave them; null when there are no role policies (everyone reads everything).
   */
  tableReaders(table: string): TableReader[] | null {
    if (!this.policies || Object.keys(this.policies).length === 0) return null;
    const key = `${this.datasourceId}.${table}`;
    const out: TableReader[] = [];
    for (const role of new Set(this.roles)) {
      const policy = Object.hasOwn(this.policies, role) ? this.policies[role] : undefined;
      if (!policy || !this.datasourceOk(policy) || !this.tableOk(policy, table)) continue;
      out.push({ role, policy, filtered: rowRuleOf(policy, key) !== undefined });
    }
    return out;
  }

  /** Whether `reader` may read the column at all (its column rules). */
  readerReadsColumn(reader: TableReader, table: string, column: string): boolean {
    return this.columnOk(reader.policy, table, column);
  }

  /** Whether `reader` reads the column masked (`columns.mask`). */
  readerMasks(reader: TableReader, table: string, column: string): boolean {
    const mask = reader.policy.columns?.mask;
    return !!mask && includesName(mask, `${this.datasourceId}.${table}.${column}`);
  }

  /**
   * True when the column comes back masked in some row the caller reads: a role of the caller
   * masks it, and no role that reads it unmasked reads every row. Such a column may be selected;
   * used anywhere else it would filter, join, group or sort on masked values (COLUMN_DENIED).
   */
  isMasked(table: string, column: string): boolean {
    const readers = this.tableReaders(table);
    if (!readers) return false;
    const readersOfColumn = readers.filter((r) => this.readerReadsColumn(r, table, column));
    if (!readersOfColumn.some((r) => this.readerMasks(r, table, column))) return false;
    return !readersOfColumn.some((r) => !r.filtered && !this.readerMasks(r, table, column));
  }

  private datasourceOk(p: RolePolicy): boolean {
    return !p.datasources || includesName(p.datasources, this.datasourceId);
  }

  private tableOk(p: RolePolicy, table: string): boolean {
    const key = `${this.datasourceId}.${table}`;
    if (p.tables?.deny && includesName(p.tables.deny, key)) return false;
    if (p.tables?.allow) return includesName(p.tables.allow, key);
    return true;
  }

  private columnOk(p: RolePolicy, table: string, column: string): boolean {
    const key = `${this.datasourceId}.${table}.${column}`;
    if (p.columns?.deny && includesName(p.columns.deny, key)) return false;
    if (p.columns?.allow) {
      // An allow list names columns of some tables; tables it does not mention keep all columns.
      const prefix = `${this.datasourceId}.${table}.`.toLowerCase();
      const mentionsTable = p.columns.allow.some((c) => c.toLowerCase().startsWith(prefix));
      return !mentionsTable || includesName(p.columns.allow, key);
    }
    return true;
  }
}

/** A role's row filter text for `<datasource>.<table>` (keys compare case-insensitively). */
export function rowRuleOf(p: RolePolicy, key: string): string | undefined {
  if (!p.rows) return undefined;
  const lower = key.toLowerCase();
  const found = Object.keys(p.rows).find((k) => k.toLowerCase() === lower);
  return found === undefined ? undefined : p.rows[found];
}

function includesName(list: readonly string[], name: string): boolean {
  const lower = name.toLowerCase();
  return list.some((x) => x.toLowerCase() === lower);
}
