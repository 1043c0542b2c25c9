/**
 * `nl2sql` as a user runs it: each command in its own process (bin/nl2sql.js), against a SQLite
 * datasource and the scripted model server; MCP over stdio through the SDK's own client.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeSqliteFixture } from '../support/app';
import { arrowAgainstParquet } from '../support/arrow-compare';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';

const BIN = resolve(__dirname, '..', '..', 'bin', 'nl2sql.js');
let fake: FakeModelServer;
let dir: string;
let configFile: string;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  dir = mkdtempSync(join(tmpdir(), 'nl2sql-cli-'));
  configFile = join(dir, 'nl2sql.yaml');
  writeFileSync(
    configFile,
    [
      'api: { role_header: X-Roles }',
      'datasources:',
      `  - { id: shop, type: sqlite, connection: { path: ${JSON.stringify(makeSqliteFixture())} } }`,
      'policies: { roles: { admin: {}, analyst: { columns: { deny: [shop.customers.name] } } } }',
      `llm: { provider: openai_compatible, model: fake-model, base_url: ${JSON.stringify(fake.openaiBaseUrl)}, planner_format: sql }`,
      'storage:',
      `  results: { path: ${JSON.stringify(join(dir, 'results'))} }`,
      `  traces: { path: ${JSON.stringify(join(dir, 'traces'))} }`,
      `  index: { path: ${JSON.stringify(join(dir, 'index'))} }`,
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function nl2sql(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('check-config', () => {
  it('says a valid config is valid, exit 0', async () => {
    const r = await nl2sql(['check-config', configFile]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`config OK: ${configFile}`);
    expect(r.stdout).toContain('datasources: shop (sqlite)');
  });

  it('names what is wrong as start-up would, exit 1; a usage error is exit 2', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'datasourcs: []\n');
    const r = await nl2sql(['check-config', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("datasourcs: unknown key 'datasourcs' (did you mean 'datasources'?)");
    expect((await nl2sql(['check-config', join(dir, 'nope.yaml')])).stderr).toContain('no config file at');
    // A secret that does not resolve would fail the datasource at start: named, with the fix.
    const secret = join(dir, 'secret.yaml');
    writeFileSync(
      secret,
      'datasources:\n  - { id: pg, type: postgres, connection: { host: 127.0.0.1, user: u, database: d, password: "${env:NL2SQL_TEST_UNSET_PASSWORD}" } }\n',
    );
    const unresolved = await nl2sql(['check-config', secret]);
    expect(unresolved.code).toBe(1);
    expect(unresolved.stderr).toContain(
      'datasources[0].connection.password: ${env:NL2SQL_TEST_UNSET_PASSWORD} does not resolve; set the environment variable NL2SQL_TEST_UNSET_PASSWORD',
    );
    expect((await nl2sql(['check-config', secret], { NL2SQL_TEST_UNSET_PASSWORD: 'set' })).code).toBe(0);
    const usage = await nl2sql(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("unknown command 'frobnicate'");
  });
});

describe('ask', () => {
  const script = () =>
    new PipelineModel(fake)
      .single('shop')
      .on('sql_draft', {
        json: { sql: 'SELECT id, amount FROM orders ORDER BY id', unanswerable_reason: null },
      })
      .on('answer', { text: 'There are three orders.' });

  it('prints the answer, the SQL and a table', async () => {
    script();
    const r = await nl2sql([
      'ask',
      'Show every order id with its amount',
      '--config',
      configFile,
      '--role',
      'analyst',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('There are three orders.');
    expect(r.stdout).toMatch(/SQL \(shop\):\nSELECT .* FROM "orders"/);
    expect(r.stdout).toMatch(/^id +\| amount$/m);
    expect(r.stdout).toMatch(/^3 +\| 7\.25$/m);
    expect(r.stdout).toContain('status success; 2 model call(s)');
  });

  it('prints the API response body with --json, logs staying on stderr', async () => {
    script();
    const r = await nl2sql([
      'ask',
      'Show every order id with its amount',
      '--json',
      '--config',
      configFile,
      '--role',
      'analyst',
    ]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ status: 'success', source: { type: 'generated' } });
    expect(body.sub_queries[0].rows.total_rows).toBe(3);
  });

  it('writes the whole result as an Arrow IPC stream with --arrow FILE', async () => {
    script();
    const file = join(dir, 'orders.arrows');
    const r = await nl2sql([
      'ask',
      'Show every order id with its amount',
      '--json',
      '--arrow',
      file,
      '--config',
      configFile,
      '--role',
      'analyst',
    ]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    const resultId = body.sub_queries[0].id;
    expect(r.stderr).toContain(`wrote result ${resultId} to ${file} (Arrow IPC stream)`);
    const back = await arrowAgainstParquet(
      readFileSync(file),
      fileURLToPath(body.artifact_refs[resultId].uri),
    );
    expect(back).toMatchObject({ rows: 3, mismatches: [], types: { id: 'Int64', amount: 'Float64' } });
  });

  it('exits 1 with the reason when the run fails', async () => {
    const r = await nl2sql([
      'ask',
      'anything',
      '--datasource',
      'nope',
      '--config',
      configFile,
      '--role',
      'analyst',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("DATASOURCE_NOT_FOUND: unknown datasource 'nope'");
  });
});

describe('index', () => {
  it('builds all datasources or one, and names an unknown one', async () => {
    const all = await nl2sql(['index', '--all', '--config', configFile]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^shop: \d+ entries, \d+ values, version \d+/m);
    const one = await nl2sql(['index', 'shop', '--config', configFile]);
    expect(one.code).toBe(0);
    const unknown = await nl2sql(['index', 'nope', '--config', configFile]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/nope/);
    expect((await nl2sql(['index', '--config', configFile])).code).toBe(2);
  });
});

describe('mcp', () => {
  it("serves the tools on stdio with the process's role", async () => {
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--config', configFile, '--role', 'analyst'],
      cwd: dir,
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('ask');
      const described = (
        await client.callTool({ name: 'describe_datasource', arguments: { datasource_id: 'shop' } })
      ).structuredContent as { tables: { name: string; columns: { name: string; readable: boolean }[] }[] };
      const customers = described.tables.find((t) => t.name === 'customers')!;
      expect(customers.columns.find((c) => c.name === 'name')!.readable).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('serve', () => {
  it('serves the API as npm start does, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        NL2SQL_CONFIG: configFile,
        PORT: '0',
        HOST: '127.0.0.1',
        NL2SQL_LOG_LEVEL: 'info',
      },
      cwd: dir,
    });
    let output = '';
    const url = await new Promise<string>((done, fail) => {
      const onData = (d: Buffer) => {
        output += d.toString();
        const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (m) done(m[1]!);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('close', (code) => fail(new Error(`serve exited ${code}: ${output}`)));
    });
    expect((await http('GET', `${url}/health`)).status).toBe(200);
    expect((await http('GET', `${url}/metrics`)).text).toContain('nl2sql_http_requests_total');
    const code = await new Promise<number | null>((done) => {
      child.removeAllListeners('close');
      child.on('close', done);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});
