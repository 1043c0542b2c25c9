/**
 * Resolves secret references. The config keeps the reference (`${env:NAME}`, `${file:/path}`, or
 * `${<provider>:<key>}` for a provider registered here); the value is read only when a client or
 * a pool is built, and is remembered by the redactor so it never shows up in a log or a response.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { registerSecret } from './redact';
import { SECRET_REF } from './strict-validate';

export type SecretProvider = (key: string) => string | undefined;

export class SecretResolutionError extends Error {
  readonly code = 'SECRET_UNRESOLVED';
}

export class SecretManager {
  private readonly providers = new Map<string, SecretProvider>();

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

  /** Adds a secret source such as a vault client: `${vault:path}`. */
  register(name: string, provider: SecretProvider): void {
    this.providers.set(name.toLowerCase(), provider);
  }

  isReference(value: unknown): value is string {
    return typeof value === 'string' && SECRET_REF.test(value);
  }

  /** A literal value is returned as it is; a reference is resolved or throws naming what is missing. */
  resolve(value: string, field = 'secret'): string {
    const m = SECRET_REF.exec(value);
    if (!m) {
      registerSecret(value);
      return value;
    }
    const [whole, scheme = '', key = ''] = m;
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
    // A reference may sit inside a longer string (a URL with ${env:PASSWORD} in it).
    return value.replace(whole, resolved);
  }

  /** Reads a standard key variable such as OPENAI_API_KEY from the environment. */
  fromEnv(name: string): string | undefined {
    const v = this.env[name];
    if (v) registerSecret(v);
    return v || undefined;
  }
}
