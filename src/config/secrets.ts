/**
 * Resolves secret references. The config keeps the reference (`${env:NAME}`, `${file:/path}`, or
 * `${<provider>:<key>}` for a provider registered here); the value is read only when a client or
 * a pool is built, and is remembered by the redactor so it never shows up in a log or a response.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { registerSecret } from './redact';
import type { RuntimeSecretPolicy } from './runtime-secrets';
import { SECRET_REF } from './strict-validate';

export type SecretProvider = (key: string) => string | undefined;

export class SecretResolutionError extends Error {
  readonly code = 'SECRET_UNRESOLVED';
}

export class SecretManager {
  private providers = new Map<string, SecretProvider>();
  /** Set on a manager for runtime configs (restrictedTo): the references it may resolve. */
  private policy: RuntimeSecretPolicy | null = null;

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** Relative `${file:...}` paths are read from here (the config file's folder). */
    private readonly baseDir = process.cwd(),
  ) {
    this.providers.set('env', (name) => this.env[name]);
    this.providers.set('file', (path) => {
      const full = isAbsolute(path) ? path : resolve(this.baseDir, path);
      try {
        return readFileSync(full, 'utf8').trim();
      } catch {
        return undefined;
      }
    });
  }

  /**
   * The same sources (providers registered later included), resolving only the references the
   * policy allows: what clients and pools of a config sent at runtime are built with, so that a
   * reference the runtime check missed still cannot read a server secret.
   */
  restrictedTo(policy: RuntimeSecretPolicy): SecretManager {
    const restricted = new SecretManager(this.env, this.baseDir);
    restricted.providers = this.providers;
    restricted.policy = policy;
    return restricted;
  }

  /** Adds a secret source such as a vault client: `${vault:path}`. */
  register(name: string, provider: SecretProvider): void {
    this.providers.set(name.toLowerCase(), provider);
  }

  isReference(value: unknown): value is string {
    return typeof value === 'string' && SECRET_REF.test(value);
  }

  /**
   * A literal value is returned as it is; every reference in it (a URL may hold several) is
   * resolved, or this throws naming what is missing.
   */
  resolve(value: string, field = 'secret'): string {
    if (!SECRET_REF.test(value)) {
      registerSecret(value);
      return value;
    }
    return value.replace(new RegExp(SECRET_REF.source, 'gi'), (whole, scheme: string, key: string) =>
      this.resolveOne(whole, scheme, key, field),
    );
  }

  private resolveOne(whole: string, scheme: string, key: string, field: string): string {
    const refused = this.policy?.refusal(scheme, key);
    if (refused) throw new SecretResolutionError(`${field}: ${refused}`);
    const provider = this.providers.get(scheme.toLowerCase());
    if (!provider) {
      throw new SecretResolutionError(
        `${field}: unknown secret source '${scheme}' in ${whole} (known: ${[...this.providers.keys()].join(', ')})`,
      );
    }
    const resolved = provider(key);
    if (resolved === undefined || resolved === '') {
      const how =
        scheme === 'env'
          ? `set the environment variable ${key}`
          : scheme === 'file'
            ? `create the file ${key}`
            : `define ${key} in ${scheme}`;
      throw new SecretResolutionError(`${field}: ${whole} does not resolve; ${how}`);
    }
    registerSecret(resolved);
    return resolved;
  }

  /** Reads a standard key variable such as OPENAI_API_KEY from the environment. */
  fromEnv(name: string): string | undefined {
    const v = this.env[name];
    if (v) registerSecret(v);
    return v || undefined;
  }
}
