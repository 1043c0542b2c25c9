/** The names of the `param` nodes anywhere in a plan (placeholders of a verified query). */
import type { Query } from '../plan/types';

export function walkPlanParams(plan: Query): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node && typeof node === 'object') {
      const n = node as { kind?: unknown; name?: unknown };
      if (n.kind === 'param' && typeof n.name === 'string') names.add(n.name);
      Object.values(node).forEach(visit);
    }
  };
  visit(plan);
  return names;
}
