/**
 * The provider registry: built-ins, their aliases, and plugins of interface version 2 registered
 * programmatically or discovered from installed packages (see plugin-discovery.ts).
 */
import { LlmError } from '../errors';
import { builtInProviders, PROVIDER_ALIASES, type ModuleLoader } from './builtins';
import { STRUCTURED_METHODS, type ProviderDefinition, type ProviderPluginV2 } from './provider';

export const PLUGIN_INTERFACE_VERSION = 2;

/** Provider entry of `providers()` (spec section 2). */
export interface ProviderEntry {
  name: string;
  label: string;
  key_variable: string | null;
  key_present: boolean;
}

export interface RegistryOptions {
  /** Loads a package; `require` by default. Tests pass one that fails to stand for a missing package. */
  readonly load?: ModuleLoader;
  /** Whether a package is installed; `require.resolve` by default. */
  readonly isInstalled?: (id: string) => boolean;
}

export class ProviderRegistry {
  private readonly providers = new Map<string, ProviderDefinition>();
  private readonly isInstalledFn: (id: string) => boolean;

  constructor(options: RegistryOptions = {}) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional SDKs load by name, on first use
    const load = options.load ?? ((id: string) => require(id) as unknown);
    this.isInstalledFn =
      options.isInstalled ??
      (options.load
        ? (id) => {
            try {
              load(id);
              return true;
            } catch {
              return false;
            }
          }
        : (id) => {
            try {
              require.resolve(id);
              return true;
            } catch {
              return false;
            }
          });
    for (const p of builtInProviders(load)) this.providers.set(p.name, p);
  }

  /** Registers a plugin under `name`. Throws LLM_PLUGIN_INVALID for another interface version or a bad shape. */
  register(name: string, plugin: unknown): void {
    if (!/^[a-z][a-z0-9_-]{0,63}$/.test(name)) {
      throw new LlmError(
        'LLM_PLUGIN_INVALID',
        `provider name '${name}' must be lower-case letters, digits, _ or -`,
      );
    }
    if (this.providers.has(name) || name in PROVIDER_ALIASES) {
      throw new LlmError(
        'LLM_PLUGIN_INVALID',
        `provider '${name}' is already defined; a plugin cannot replace it`,
      );
    }
    const p = validatePlugin(name, plugin);
    const def: ProviderDefinition = {
      name,
      label: p.label,
      keyVariable: p.api_key_env,
      placeholderKey: null,
      defaultBaseUrl: null,
      baseUrlRequired: false,
      structuredOutput: p.structured_output,
      requires: [...p.requires],
      installHint: p.install_hint,
      plugin: true,
      create: (agent) => p.create(agent),
    };
    this.providers.set(name, def);
  }

  /** The canonical name of a provider or alias; throws 'Unsupported LLM provider' naming the valid ones. */
  canonical(name: string): string {
    const canonical = PROVIDER_ALIASES[name] ?? name;
    if (this.providers.has(canonical)) return canonical;
    throw new LlmError(
      'LLM_PROVIDER_UNSUPPORTED',
      `Unsupported LLM provider '${name}'; valid providers: ${this.validNames().join(', ')}`,
    );
  }

  get(name: string): ProviderDefinition {
    const def = this.providers.get(this.canonical(name));
    if (!def) throw new LlmError('LLM_PROVIDER_UNSUPPORTED', `Unsupported LLM provider '${name}'`);
    return def;
  }

  /** Canonical names and aliases a config may use. */
  validNames(): string[] {
    return [...this.providers.keys(), ...Object.keys(PROVIDER_ALIASES)];
  }

  /** Whether every package the provider needs is installed. */
  installed(def: ProviderDefinition): boolean {
    return def.requires.every((id) => this.isInstalledFn(id));
  }

  missingPackages(def: ProviderDefinition): string[] {
    return def.requires.filter((id) => !this.isInstalledFn(id));
  }

  /** Built-ins whose client library is installed, plus every plugin (spec 4.16 `providers()`). */
  list(keyPresent: (variable: string) => boolean): ProviderEntry[] {
    return [...this.providers.values()]
      .filter((def) => def.plugin || this.installed(def))
      .map((def) => ({
        name: def.name,
        label: def.label,
        key_variable: def.keyVariable,
        key_present: def.keyVariable ? keyPresent(def.keyVariable) : false,
      }));
  }
}

function validatePlugin(name: string, plugin: unknown): ProviderPluginV2 {
  const p = (plugin ?? {}) as Partial<Record<keyof ProviderPluginV2, unknown>>;
  if (p.interface_version !== PLUGIN_INTERFACE_VERSION) {
    throw new LlmError(
      'LLM_PLUGIN_INVALID',
      `provider plugin '${name}' implements interface version ${JSON.stringify(p.interface_version ?? null)}; this engine loads version ${PLUGIN_INTERFACE_VERSION} only`,
    );
  }
  const problems: string[] = [];
  if (typeof p.label !== 'string' || !p.label) problems.push('label must be a non-empty string');
  if (p.api_key_env !== null && typeof p.api_key_env !== 'string')
    problems.push('api_key_env must be a string or null');
  if (!Array.isArray(p.requires) || p.requires.some((r) => typeof r !== 'string'))
    problems.push('requires must be a list of package names');
  if (typeof p.install_hint !== 'string') problems.push('install_hint must be a string');
  if (!STRUCTURED_METHODS.includes(p.structured_output as never)) {
    problems.push(`structured_output must be one of ${STRUCTURED_METHODS.join(', ')}`);
  }
  if (typeof p.create !== 'function') problems.push('create(agent) must be a function');
  if (problems.length)
    throw new LlmError('LLM_PLUGIN_INVALID', `provider plugin '${name}' is invalid: ${problems.join('; ')}`);
  return plugin as ProviderPluginV2;
}
