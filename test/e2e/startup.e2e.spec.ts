/**
 * Spec 1 start-up rules, as a real process: a required datasource that fails stops start-up with a
 * non-zero exit naming it and the reason; an optional one that fails is `failed` and the rest serve.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { http } from '../support/http';
import { makeSqliteFixture } from '../support/app';

const ROOT = resolve(__dirname, '..', '..');

function startService(configYaml: string | null, extraEnv: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-start-'));
  if (configYaml !== null) writeFileSync(join(dir, 'nl2sql.yaml'), configYaml);
  const { NL2SQL_CONFIG: _ignored, ...env } = process.env;
  const child = spawn(
    process.execPath,
    ['-r', require.resolve('@swc-node/register'), join(ROOT, 'src', 'main.ts')],
    {
      cwd: dir,
      env: {
        ...env,
        PORT: '0',
        HOST: '127.0.0.1',
        NL2SQL_LOG_FORMAT: 'json',
        NL2SQL_LOG_LEVEL: 'info',
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const serving = new Promise<string>((res, rej) => {
    const timer = setInterval(() => {
      const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m?.[1]) {
        clearInterval(timer);
        res(m[1]);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      rej(new Error(`exited with ${code}: ${output}`));
    });
  });
  // Tests that expect an exit never await `serving`: its rejection is not a failure there.
  serving.catch(() => undefined);
  return { child, exited, serving, output: () => output, dir };
}

function stop(child: ChildProcess) {
  if (child.exitCode === null) child.kill('SIGTERM');
}

const sqlite = makeSqliteFixture();
// Port 1 on loopback: nothing listens there, so the connection is refused at once.
const deadPg = (required: boolean) => `
  - id: warehouse
    type: postgres
    required: ${required}
    connection: { host: 127.0.0.1, port: 1, user: postgres, database: postgres, password: "\${env:WAREHOUSE_PW}" }`;

describe('start-up as a real process', () => {
  it('serves the embedded default with no config at all: the demo database is built and ready', async () => {
    const svc = startService(null);
    try {
      const url = await svc.serving;
      const ready = await http('GET', `${url}/ready`);
      expect(ready.status).toBe(200);
      expect(ready.json().datasources).toEqual([{ id: 'demo', status: 'ready', reason: null }]);
      // The model is reported per agent, with what to do when it does not answer, and the service
      // stays ready either way (an Ollama running on this machine would make it reachable).
      const agent = ready.json().agents.find((a: { agent: string }) => a.agent === 'default');
      expect(agent).toMatchObject({ provider: 'ollama', endpoint: 'http://127.0.0.1:11434' });
      // Unreachable, or reachable without the model pulled: the hint says to pull it.
      if (!agent.reachable) expect(agent.hint).toMatch(/ollama pull qwen2\.5-coder:3b/);
      if (agent.hint !== null) expect(agent.hint).toMatch(/ollama pull qwen2\.5-coder:3b/);
      const tables = (await http('GET', `${url}/api/v1/datasource/demo`)).json();
      expect(tables.status).toBe('ready');
      expect(svc.output()).toContain('built the demo database');
      expect((await http('GET', `${url}/api/v1/llm/default`)).json().provider).toBe('ollama');
    } finally {
      stop(svc.child);
      await svc.exited;
    }
  }, 180_000);

  it('refuses to start when a required datasource fails, naming it and the reason', async () => {
    const svc = startService(
      `datasources:\n  - id: shop\n    type: sqlite\n    connection: { path: ${sqlite} }${deadPg(true)}\n`,
      {
        WAREHOUSE_PW: 'pw-that-must-not-leak',
      },
    );
    const code = await svc.exited;
    expect(code).not.toBe(0);
    expect(svc.output()).toMatch(/required datasource failed: 'warehouse' \(.+\)/);
    expect(svc.output()).not.toContain('pw-that-must-not-leak');
  });

  it('serves the others when an optional datasource fails, and reports it failed with its reason', async () => {
    const svc = startService(
      `datasources:\n  - id: shop\n    type: sqlite\n    connection: { path: ${sqlite} }${deadPg(false)}\n`,
      {
        WAREHOUSE_PW: 'pw-that-must-not-leak',
      },
    );
    try {
      const url = await svc.serving;
      const ready = await http('GET', `${url}/ready`);
      expect(ready.status).toBe(200);
      const byId = Object.fromEntries(ready.json().datasources.map((d: any) => [d.id, d]));
      expect(byId.shop.status).toBe('ready');
      expect(byId.warehouse.status).toBe('failed');
      expect(byId.warehouse.reason).toEqual(expect.any(String));
      stop(svc.child);
      expect(await svc.exited).toBe(0);
      expect(svc.output()).toContain('engine closed');
      expect(svc.output()).not.toContain('pw-that-must-not-leak');
    } finally {
      stop(svc.child);
    }
  });

  it('refuses to start when no datasource is ready', async () => {
    const svc = startService(`datasources:${deadPg(false)}\n`);
    expect(await svc.exited).not.toBe(0);
    expect(svc.output()).toMatch(/no datasource is ready: 'warehouse'/);
  });

  it('refuses to start on a config error, with the count and path of each problem', async () => {
    const svc = startService(
      `tenant_idd: x\ndatasources:\n  - id: shop\n    type: sqlite\n    conection: {}\n`,
    );
    expect(await svc.exited).not.toBe(0);
    const out = svc.output();
    expect(out).toContain('3 problems');
    expect(out).toContain("tenant_idd: unknown key 'tenant_idd' (did you mean 'tenant_id'?)");
    expect(out).toContain("datasources[0].conection: unknown key 'conection' (did you mean 'connection'?)");
  });
});
