/**
 * Finds provider plugins among installed packages: the Node counterpart of an entry-point group.
 * A package declares its providers in its package.json:
 *
 *   "nl2sql": { "providers": { "acme": "./dist/provider.js" } }
 *
 * and that module exports the plugin object (interface version 2) as `default`, `provider` or
 * as the module itself. A plugin that fails to load or has another version is rejected, not fatal.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProviderRegistry } from './registry';

export interface DiscoveryResult {
  readonly registered: { name: string; package: string }[];
  readonly rejected: { name: string; package: string; reason: string }[];
}

export function discoverPlugins(registry: ProviderRegistry, rootDir = process.cwd()): DiscoveryResult {
  const result: DiscoveryResult = { registered: [], rejected: [] };
  for (const pkgDir of packageDirs(join(rootDir, 'node_modules'))) {
    let manifest: { name?: string; nl2sql?: { providers?: Record<string, unknown> } };
    try {
      manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    const declared = manifest.nl2sql?.providers;
    if (!declared || typeof declared !== 'object') continue;
    const pkg = manifest.name ?? pkgDir;
    for (const [name, modulePath] of Object.entries(declared)) {
      try {
        if (typeof modulePath !== 'string') throw new Error('the declared module must be a path string');
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a plugin module is known only at run time
        const mod = require(resolve(pkgDir, modulePath)) as { default?: unknown; provider?: unknown };
        registry.register(name, mod.default ?? mod.provider ?? mod);
        result.registered.push({ name, package: pkg });
      } catch (err) {
        result.rejected.push({
          name,
          package: pkg,
          reason: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }
  return result;
}

function packageDirs(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    if (entry.name.startsWith('.')) continue;
    const full = join(nodeModules, entry.name);
    if (entry.name.startsWith('@')) {
      for (const scoped of readdirSync(full, { withFileTypes: true })) out.push(join(full, scoped.name));
    } else {
      out.push(full);
    }
  }
  return out.filter((dir) => existsSync(join(dir, 'package.json')));
}
