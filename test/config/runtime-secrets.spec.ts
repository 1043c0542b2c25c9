/**
 * What a config sent at runtime may reference (secrets.runtime_allowed), checked before anything is
 * built, and held again where values are resolved (SecretManager.restrictedTo).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error';
import { parseConfig } from '../../src/config/loader';
import { RuntimeSecretPolicy } from '../../src/config/runtime-secrets';
import { DatasourceConfigSchema, LlmSectionSchema } from '../../src/config/schema';
import { SecretManager } from '../../src/config/secrets';

const env = { ALLOWED: 'allowed-value-1', OTHER: 'other-value-2', HOST_PART: 'db.example.com' };

describe('RuntimeSecretPolicy', () => {
  const policy = new RuntimeSecretPolicy(['env:ALLOWED', 'ENV:HOST_PART', 'file:/etc/passwd']);

  it('allows the listed references only, the scheme in any case, and never a file', () => {
    expect(policy.allows('env', 'ALLOWED')).toBe(true);
    expect(policy.allows('Env', 'HOST_PART')).toBe(true);
    expect(policy.allows('env', 'allowed')).toBe(false); // a variable's name is case-sensitive
    expect(policy.allows('env', 'OTHER')).toBe(false);
    expect(policy.allows('file', '/etc/passwd')).toBe(false);
    expect(policy.allows('FILE', '/etc/passwd')).toBe(false);
  });

  it('names every refused reference of every secret field, however deep, and passes literals', () => {
    const section = {
      provider: 'openai',
      model: 'm',
      api_key: 'sk-a-literal-key-0000',
      headers: { 'X-A': '${env:ALLOWED}', 'X-B': 'Bearer ${env:OTHER}' },
      agents: { decomposer: { api_key: '${file:key.txt}' } },
    };
    expect(policy.problems(LlmSectionSchema, section, 'llm')).toEqual([
      { path: 'llm.headers.X-B', message: expect.stringContaining('${env:OTHER} is not allowed') },
      {
        path: 'llm.agents.decomposer.api_key',
        message: expect.stringContaining('reads a file of the server'),
      },
    ]);
  });

  it('checks each reference inside one value, as in a URL', () => {
    const ds = {
      id: 'p',
      type: 'postgres',
      connection: { url: 'postgres://${env:ALLOWED}:${env:OTHER}@${env:HOST_PART}/shop' },
    };
    expect(policy.problems(DatasourceConfigSchema, ds)).toEqual([
      { path: 'connection.url', message: expect.stringContaining('${env:OTHER}') },
    ]);
  });
});

describe('SecretManager.restrictedTo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-restricted-'));
  writeFileSync(join(dir, 'key.txt'), 'file-secret-value-3\n');
  const secrets = new SecretManager(env, dir);
  const restricted = secrets.restrictedTo(new RuntimeSecretPolicy(['env:ALLOWED', 'env:HOST_PART']));

  it('resolves what is allowed, every reference of a value', () => {
    expect(restricted.resolve('u:${env:ALLOWED}@${env:HOST_PART}')).toBe('u:allowed-value-1@db.example.com');
    expect(restricted.resolve('a literal')).toBe('a literal');
  });

  it('refuses the rest before reading anything, while the unrestricted manager reads it', () => {
    expect(() => restricted.resolve('${env:OTHER}', 'connection.password')).toThrow(
      /connection.password: refused: \$\{env:OTHER\} is not allowed/,
    );
    expect(() => restricted.resolve('${file:key.txt}')).toThrow(/reads a file of the server/);
    expect(() => restricted.resolve('x${env:ALLOWED}y${env:OTHER}')).toThrow(/OTHER/);
    expect(secrets.resolve('${file:key.txt}')).toBe('file-secret-value-3');
    expect(secrets.resolve('${env:OTHER}')).toBe('other-value-2');
  });

  it('sees secret sources registered on the manager it came from, later too', () => {
    secrets.register('vault', (key) => (key === 'db/pw' ? 'vault-value-4' : undefined));
    const allowVault = secrets.restrictedTo(new RuntimeSecretPolicy(['vault:db/pw']));
    expect(allowVault.resolve('${vault:db/pw}')).toBe('vault-value-4');
    expect(() => restricted.resolve('${vault:db/pw}')).toThrow(/not allowed/);
  });
});

describe('secrets.runtime_allowed in the config file', () => {
  const problems = (runtime_allowed: unknown) => {
    try {
      parseConfig({ secrets: { runtime_allowed } });
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };

  it('defaults to none', () => {
    expect(parseConfig({}).secrets).toEqual({ runtime_allowed: [] });
  });

  it('refuses a file reference and a reference written with ${...}', () => {
    expect(problems(['env:OK', 'file:/run/secrets/pg', '${env:X}'])).toEqual([
      {
        path: 'secrets.runtime_allowed[2]',
        message: 'must be a reference without ${...}, e.g. env:SHOP_PG_PASSWORD',
      },
      {
        path: 'secrets.runtime_allowed[2]',
        message: expect.stringContaining('a secret reference is only allowed in a secret field'),
      },
      {
        path: 'secrets.runtime_allowed[1]',
        message: expect.stringContaining('a file reference can never be allowed'),
      },
    ]);
  });
});
