/**
 * Join paths over foreign keys. Tables are nodes, a foreign key is an undirected edge. The tables
 * chosen for a question are connected by walking shortest paths from the best-ranked table to each
 * other one (a cheap Steiner tree approximation), so the planner sees every table a join needs.
 */
export interface FkEdge {
  readonly table: string;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
}

export class SchemaGraph {
  private readonly adjacency = new Map<string, { to: string; edge: FkEdge }[]>();

  constructor(readonly edges: readonly FkEdge[]) {
    for (const e of edges) {
      if (e.table === e.refTable) continue;
      this.link(e.table, e.refTable, e);
      this.link(e.refTable, e.table, e);
    }
  }

  private link(a: string, b: string, edge: FkEdge): void {
    let list = this.adjacency.get(a);
    if (!list) this.adjacency.set(a, (list = []));
    list.push({ to: b, edge });
  }

  /** Tables of a shortest path from `from` to `to` (both included), or null when unconnected. */
  path(from: string, to: string, maxHops = 4): string[] | null {
    if (from === to) return [from];
    const previous = new Map<string, string>([[from, from]]);
    let frontier = [from];
    for (let hop = 0; hop < maxHops && frontier.length; hop++) {
      const next: string[] = [];
      for (const node of frontier) {
        for (const { to: n } of this.adjacency.get(node) ?? []) {
          if (previous.has(n)) continue;
          previous.set(n, node);
          if (n === to) {
            const path = [to];
            let cur = to;
            while (cur !== from) path.push((cur = previous.get(cur) ?? from));
            return path.reverse();
          }
          next.push(n);
        }
      }
      frontier = next;
    }
    return null;
  }

  /** The chosen tables plus every table on a path joining them to the first one. */
  connect(tables: readonly string[]): string[] {
    const out = new Set<string>();
    const [root, ...rest] = tables;
    if (root === undefined) return [];
    out.add(root);
    for (const t of rest) {
      out.add(t);
      // Join to the nearest table already chosen, not always the root.
      let best: string[] | null = null;
      for (const c of out) {
        if (c === t) continue;
        const p = this.path(c, t);
        if (p && (!best || p.length < best.length)) best = p;
      }
      for (const x of best ?? []) out.add(x);
    }
    return [...out];
  }

  /** Foreign keys whose two ends are both among `tables`. */
  edgesWithin(tables: readonly string[]): FkEdge[] {
    const set = new Set(tables);
    return this.edges.filter((e) => set.has(e.table) && set.has(e.refTable));
  }
}
