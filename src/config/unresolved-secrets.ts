/**
 * Secret references of a config that do not resolve now (an unset variable, a missing file). The
 * service reads secrets only when it builds the client or pool that needs them, so such a config
 * starts and fails later; `nl2sql check-config` lists them up front, with the message start-up
 * would give.
 */
import { SecretManager } from './secrets';

export interface UnresolvedSecret {
  /** Where in the config, e.g. `datasources[1].connection.url`. */
  readonly path: string;
  readonly message: string;
}

export function unresolvedSecrets(config: unknown, secrets: SecretManager): UnresolvedSecret[] {
  const out: UnresolvedSecret[] = [];
  const visit = (node: unknown, path: string): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${path}[${i}]`));
    if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) visit(v, path ? `${path}.${k}` : k);
      return;
    }
    if (!secrets.isReference(node)) return;
    try {
      secrets.resolve(node, path);
    } catch (err) {
      out.push({ path, message: err instanceof Error ? err.message : String(err) });
    }
  };
  visit(config, '');
  return out;
}
