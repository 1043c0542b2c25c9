/**
 * Role policies (config `policies.roles`): which datasources, tables (`<datasource>.<table>`) and
 * columns (`<datasource>.<table>.<column>`) each role may read. No roles section: every role reads
 * everything. With one, a role not listed reads nothing, and a caller reads what ANY of its roles
 * may read. Within a role, a deny always wins over an allow; an allow list, when present, is the
 * whole of what that role may read at that level. Names compare case-insensitively.
 */
import type { RolePolicy } from '../../../config/schema';

export type RolePolicies = Readonly<Record<string, RolePolicy>>;

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

function includesName(list: readonly string[], name: string): boolean {
  const lower = name.toLowerCase();
  return list.some((x) => x.toLowerCase() === lower);
}
