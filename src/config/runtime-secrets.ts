/**
 * Secret references in a config that arrives at runtime (PUT /settings/llm, POST /datasource).
 *
 * The config file is the operator's: any reference in it is theirs to make. A runtime config comes
 * from a remote caller (an admin role behind a header), and a reference there would make the server
 * read its own secret and send it wherever the same config points (`password: ${file:/etc/...}`
 * with a host the caller controls). Such a config may therefore reference only what the operator
 * listed in `secrets.runtime_allowed`, and never a file. A literal secret is fine: it is the
 * caller's own. The check runs before anything is built, and SecretManager.restrictedTo holds the
 * same line where values are resolved.
 */
import type { TSchema } from '@sinclair/typebox';
import type { ConfigProblem } from './config-error';
import { visitStrings } from './strict-validate';

const REFERENCES = /\$\{([a-z][a-z0-9_]*):([^}]*)\}/gi;

/** What a runtime config may reference: `scheme:key` entries, as `secrets.runtime_allowed` holds them. */
export class RuntimeSecretPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(allowed: readonly string[] = []) {
    this.allowed = new Set(allowed.filter((ref) => !isFile(ref)).map(normalize));
  }

  allows(scheme: string, key: string): boolean {
    return !isFile(scheme) && this.allowed.has(normalize(`${scheme}:${key}`));
  }

  /**
   * Why the reference `${scheme:key}` may not be used at runtime, or null when it may. It starts
   * with "refused:" because the HTTP filter masks the first word after a secret key's name
   * (`connection.password: …`), which must not be the reference the caller needs to see.
   */
  refusal(scheme: string, key: string): string | null {
    if (isFile(scheme))
      return `refused: \${${scheme}:...} reads a file of the server, which a config sent at runtime may never do; give the value itself`;
    if (this.allows(scheme, key)) return null;
    return (
      `refused: \${${scheme}:${key}} is not allowed in a config sent at runtime; give the value itself, or the ` +
      `operator allows it in the config file with secrets.runtime_allowed: [${scheme}:${key}]`
    );
  }

  /** A problem for every reference of `value`'s secret fields that this policy refuses. */
  problems(schema: TSchema, value: unknown, prefix = ''): ConfigProblem[] {
    const out: ConfigProblem[] = [];
    visitStrings(schema, value, prefix, (path, text, secret) => {
      // A reference outside a secret field is already refused by the schema check.
      if (!secret) return;
      for (const [, scheme = '', key = ''] of text.matchAll(REFERENCES)) {
        const message = this.refusal(scheme, key);
        if (message) out.push({ path, message });
      }
    });
    return out;
  }
}

function isFile(schemeOrRef: string): boolean {
  return /^file(:|$)/i.test(schemeOrRef);
}

/** The scheme is case-insensitive (as SecretManager reads it); the key is not. */
function normalize(ref: string): string {
  const colon = ref.indexOf(':');
  return `${ref.slice(0, colon).toLowerCase()}:${ref.slice(colon + 1)}`;
}
