/** Spec 5.5: secrets never appear in listings, failure reasons or log lines. */
import { Writable } from 'node:stream';
import winston from 'winston';
import { getLogger, rootLogger } from '../../src/engine/logging/logger';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { http } from '../support/http';

const PG_PASSWORD = 'pg-Secret-Value-123';
const URL_PASSWORD = 'my-Url-Secret-456';
const ENV_PASSWORD = 'env-Ref-Secret-789';

let app: RunningApp;
const lines: string[] = [];
const sink = new winston.transports.Stream({
  stream: new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  }),
});
const previousLevel = rootLogger.level;

beforeAll(async () => {
  rootLogger.level = 'debug';
  rootLogger.add(sink);
  app = await startApp(
    {
      datasources: [
        { id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } },
        // Trust auth on loopback accepts any password: this one is ready.
        {
          id: 'warehouse',
          type: 'postgres',
          connection: {
            host: '127.0.0.1',
            port: 5432,
            user: 'postgres',
            password: PG_PASSWORD,
            database: 'postgres',
          },
        },
        { id: 'crm', type: 'mysql', connection: { url: `mysql://root:${URL_PASSWORD}@127.0.0.1:1/test` } },
        {
          id: 'ledger',
          type: 'postgres',
          connection: {
            host: '127.0.0.1',
            port: 1,
            user: 'postgres',
            password: '${env:LEDGER_PW}',
            database: 'x',
          },
        },
      ],
    },
    { env: { ...process.env, LEDGER_PW: ENV_PASSWORD } },
  );
});
afterAll(async () => {
  await app.close();
  rootLogger.remove(sink);
  rootLogger.level = previousLevel;
});

describe('masking', () => {
  it('masks every connection secret in the listing, the entry and failure reasons', async () => {
    const list = await http('GET', `${app.url}/api/v1/datasource`);
    expect(list.status).toBe(200);
    const byId = Object.fromEntries(list.json().datasources.map((d: any) => [d.id, d]));
    expect(byId.warehouse.status).toBe('ready');
    expect(byId.warehouse.connection.password).toBe('***');
    expect(byId.crm.connection.url).toBe('mysql://root:***@127.0.0.1:1/test');
    expect(byId.crm.status).toBe('failed');
    expect(byId.ledger.connection.password).toBe('***');
    for (const secret of [PG_PASSWORD, URL_PASSWORD, ENV_PASSWORD, 'LEDGER_PW'])
      expect(list.text).not.toContain(secret);
    const one = await http('GET', `${app.url}/api/v1/datasource/crm`);
    expect(one.text).not.toContain(URL_PASSWORD);
  });

  it('masks secrets in every log line, whatever logged them', async () => {
    getLogger('nl2sql.test').info(`a careless line with ${PG_PASSWORD} and ${ENV_PASSWORD}`, {
      url: `postgres://u:${URL_PASSWORD}@h/db`,
    });
    const all = lines.join('');
    expect(all).toContain('a careless line with *** and ***');
    for (const secret of [PG_PASSWORD, URL_PASSWORD, ENV_PASSWORD]) expect(all).not.toContain(secret);
    // Start-up logged something about each datasource, so the check above read real lines.
    expect(all).toMatch(/datasource failed.*crm/);
  });

  it('answers a connection problem of an added datasource with a 422 naming keys, never its secret', async () => {
    const res = await http('POST', `${app.url}/api/v1/datasource`, {
      body: {
        config: {
          id: 'bad',
          type: 'mysql',
          connection: { url: `mysql://root:${URL_PASSWORD}@127.0.0.1:1/x`, host: '127.0.0.1' },
        },
      },
    });
    // The schema is valid; url and host together is the connection's own check: still a 422.
    expect(res.status).toBe(422);
    expect(res.json()).toEqual({
      detail: expect.stringContaining("connection.host: give either 'url' or 'host', not both") as string,
      error_code: 'CONFIG_INVALID',
    });
    expect(res.text).not.toContain(URL_PASSWORD);
    expect(lines.join('')).not.toContain(URL_PASSWORD);
  });
});
