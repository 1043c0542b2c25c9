/**
 * Issue 23 item 6: a config sent over HTTP must not make the server read its own files or
 * environment and send them to a host the caller chose. POST /api/v1/datasource with
 * `password: ${file:...}` and a host the caller controls, then POST /api/v1/index/{id}, sent the
 * file's content to that host; PUT /api/v1/settings/llm with `api_key: ${env:OPENAI_API_KEY}` (or no
 * api_key) and any base_url sent the server's key. A runtime config may reference only what the
 * operator allowed in `secrets.runtime_allowed`, never a file; the refusal is a 422 naming the key
 * and the value is never read. Proven with a fake PostgreSQL server that asks for a cleartext
 * password and records it, and the fake model server recording the Authorization header.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';

const FILE_SECRET = 'file-Content-Of-The-Server-4711';
const ENV_SECRET = 'env-Secret-Of-The-Server-0815';
const SERVER_OPENAI_KEY = 'sk-server-Own-Openai-Key-123456';
const ALLOWED_SECRET = 'allowed-Runtime-Secret-2468';
const admin = { 'X-Roles': 'admin' };

/**
 * A PostgreSQL server on loopback that the "attacker" runs: it answers every connection by asking
 * for the password in clear text, records what it is sent, and refuses the login.
 */
class PasswordRecorder {
  readonly passwords: string[] = [];
  readonly bytes: Buffer[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<PasswordRecorder> {
    const server = createServer();
    const recorder = new PasswordRecorder(server);
    server.on('connection', (socket) => recorder.serve(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return recorder;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  private serve(socket: Socket): void {
    let pending = Buffer.alloc(0);
    let started = false;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      this.bytes.push(chunk);
      pending = Buffer.concat([pending, chunk]);
      if (!started) {
        if (pending.length < 8) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        const code = pending.readInt32BE(4);
        pending = pending.subarray(length);
        if (code === 80877103) {
          socket.write('N'); // no TLS; the startup message follows
          return;
        }
        started = true;
        // AuthenticationCleartextPassword
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
        return;
      }
      if (pending.length < 5 || pending[0] !== 0x70) return;
      const length = pending.readInt32BE(1);
      if (pending.length < length + 1) return;
      this.passwords.push(pending.subarray(5, length).toString('utf8').replace(/\0$/, ''));
      const fields = 'SFATAL\0C28P01\0Mpassword authentication failed\0\0';
      const error = Buffer.alloc(5 + Buffer.byteLength(fields));
      error.write('E', 0);
      error.writeInt32BE(4 + Buffer.byteLength(fields), 1);
      error.write(fields, 5);
      socket.end(error);
    });
  }

  received(): string {
    return Buffer.concat(this.bytes).toString('latin1');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let app: RunningApp;
let fake: FakeModelServer;
let pg: PasswordRecorder;
let secretFile: string;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  fake.onRequest(() => ({ fail: 'server' }));
  pg = await PasswordRecorder.start();
  secretFile = join(mkdtempSync(join(tmpdir(), 'nl2sql-server-secret-')), 'secret.txt');
  writeFileSync(secretFile, `${FILE_SECRET}\n`);
  app = await startApp(
    {
      api: { role_header: 'X-Roles' },
      secrets: { runtime_allowed: ['env:ALLOWED_PW', 'env:ALLOWED_MODEL_KEY'] },
      datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
      llm: {
        provider: 'openai_compatible',
        model: 'fake-model',
        base_url: fake.openaiBaseUrl,
        api_key: 'sk-config-file-key-000000',
        max_retries: 0,
      },
    },
    {
      env: {
        ...process.env,
        SERVER_SECRET: ENV_SECRET,
        OPENAI_API_KEY: SERVER_OPENAI_KEY,
        ALLOWED_PW: ALLOWED_SECRET,
        ALLOWED_MODEL_KEY: 'sk-allowed-Model-Key-97531',
      },
    },
  );
});
afterAll(async () => {
  await app.close();
  await fake.close();
  await pg.close();
});

const SERVER_SECRETS = [FILE_SECRET, ENV_SECRET, SERVER_OPENAI_KEY];

describe('POST /api/v1/datasource, then POST /api/v1/index/{id}', () => {
  let n = 0;
  const addAndIndex = async (connection: Record<string, unknown>) => {
    const id = `remote_${++n}`;
    const added = await http('POST', `${app.url}/api/v1/datasource`, {
      body: { config: { id, type: 'postgres', connection } },
      headers: admin,
    });
    const indexed = await http('POST', `${app.url}/api/v1/index/${id}`, { headers: admin });
    return { added, indexed };
  };
  const at = () => ({ host: '127.0.0.1', port: pg.port, user: 'app', database: 'shop' });

  it('sends a literal password to the host it names (the recorder records what a server gets)', async () => {
    const { added } = await addAndIndex({ ...at(), password: 'caller-Own-Password-1' });
    expect(added.status).toBe(200);
    expect(pg.passwords).toEqual(['caller-Own-Password-1']);
  });

  it.each([
    ['a file', 'password', () => `\${file:${secretFile}}`, /\$\{file:\.\.\.\} reads a file of the server/],
    ['a file by a relative path', 'password', () => '${file:secret.txt}', /reads a file of the server/],
    [
      'an environment variable',
      'password',
      () => '${env:SERVER_SECRET}',
      /\$\{env:SERVER_SECRET\} is not allowed/,
    ],
    ['PATH', 'password', () => '${env:PATH}', /secrets\.runtime_allowed: \[env:PATH\]/],
    [
      'a variable inside a URL',
      'url',
      () => `postgres://app:\${env:SERVER_SECRET}@127.0.0.1:${pg.port}/shop`,
      /\$\{env:SERVER_SECRET\} is not allowed/,
    ],
  ])('refuses %s with a 422 naming the key, and nothing reaches the host', async (_what, key, value, why) => {
    const before = pg.received().length;
    const connection = key === 'url' ? { url: value() } : { ...at(), password: value() };
    const { added, indexed } = await addAndIndex(connection);
    expect(added.status).toBe(422);
    expect(added.json().error_code).toBe('CONFIG_INVALID');
    expect(added.json().detail).toContain(`connection.${key}: `);
    expect(added.json().detail).toMatch(why);
    // Never added: there is nothing to index (404 once unknown ids map to it on every route).
    expect(indexed.json().error_code).toBe('NOT_FOUND');
    expect(pg.received().length).toBe(before);
    for (const secret of SERVER_SECRETS) {
      expect(added.text).not.toContain(secret);
      expect(pg.received()).not.toContain(secret);
    }
  });

  it('resolves a reference the operator allowed for runtime configs', async () => {
    const { added } = await addAndIndex({ ...at(), password: '${env:ALLOWED_PW}' });
    expect(added.status).toBe(200);
    expect(pg.passwords.at(-1)).toBe(ALLOWED_SECRET);
    for (const secret of SERVER_SECRETS) expect(pg.received()).not.toContain(secret);
  });
});

describe('PUT /api/v1/settings/llm', () => {
  const put = (body: unknown) => http('PUT', `${app.url}/api/v1/settings/llm`, { body, headers: admin });
  const ask = () =>
    http('POST', `${app.url}/api/v1/query`, {
      body: { natural_language: 'How many orders are there?' },
      headers: { 'X-Roles': 'analyst' },
    });
  const openaiAtFake = () => ({
    provider: 'openai',
    model: 'gpt-4.1-mini',
    base_url: fake.openaiBaseUrl,
    max_retries: 0,
  });

  it.each([
    [{ api_key: '${env:OPENAI_API_KEY}' }, 'llm.api_key', /\$\{env:OPENAI_API_KEY\} is not allowed/],
    [{}, 'llm.api_key', /the server's OPENAI_API_KEY would be sent to base_url/],
    [
      { api_key: 'sk-caller-x-1234567', headers: { 'X-Key': '${env:SERVER_SECRET}' } },
      'llm.headers.X-Key',
      /not allowed/,
    ],
    [
      { api_key: 'sk-caller-x-1234567', agents: { ast_planner: { api_key: '${file:/etc/hostname}' } } },
      'llm.agents.ast_planner.api_key',
      /reads a file of the server/,
    ],
    [
      { api_key: 'sk-caller-x-1234567', agents: { ast_planner: { provider: 'openai', api_key: null } } },
      'llm.agents.ast_planner.api_key',
      /OPENAI_API_KEY would be sent/,
    ],
  ])('refuses %j with a 422 naming %s, and changes nothing', async (extra, key, why) => {
    const res = await put({ ...openaiAtFake(), ...extra });
    expect(res.status).toBe(422);
    expect(res.json().error_code).toBe('CONFIG_INVALID');
    expect(res.json().detail).toContain(`${key}: `);
    expect(res.json().detail).toMatch(why);
    expect((await http('GET', `${app.url}/api/v1/llm/default`)).json().model).toBe('fake-model');
  });

  it('never lets a server secret reach the model server, and sends what was allowed or given', async () => {
    fake.reset();
    fake.onRequest(() => ({ fail: 'server' }));
    await ask();
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-config-file-key-000000']);

    expect((await put({ ...openaiAtFake(), api_key: '${env:ALLOWED_MODEL_KEY}' })).status).toBe(200);
    await ask();
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer sk-allowed-Model-Key-97531');

    expect((await put({ ...openaiAtFake(), api_key: 'sk-caller-Literal-Key-42' })).status).toBe(200);
    await ask();
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer sk-caller-Literal-Key-42');

    const sent = JSON.stringify(fake.requests.map((r) => ({ headers: r.headers, body: r.body })));
    for (const secret of SERVER_SECRETS) expect(sent).not.toContain(secret);
  });

  it("lets the server's key variable go to the provider's own endpoint only", async () => {
    // No base_url: the key goes to OpenAI itself, as a config file would send it (nothing is called here).
    expect((await put({ provider: 'openai', model: 'gpt-4.1' })).status).toBe(200);
    expect((await http('GET', `${app.url}/api/v1/llm/default`)).json()).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1',
    });
  });
});
