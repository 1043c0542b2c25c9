/**
 * Spec 5: the role matrix for every admin route, over real HTTP against the real AppModule.
 * "Non-loopback" is a client on a Unix socket: it has no IP address at all, so it cannot be
 * mistaken for loopback (and no test traffic leaves the machine).
 */
import { http } from '../support/http';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { DatasourceAdmin } from '../../src/engine/admin/datasource-admin.service';

interface AdminRoute {
  readonly name: string;
  /** Sends the request; `n` makes ids unique per call. */
  send(
    app: RunningApp,
    headers: Record<string, string>,
    n: number,
  ): Promise<{ status: number; text: string }>;
  /** Status when access is granted. */
  readonly granted: number;
}

const fixture = makeSqliteFixture();
let counter = 0;

const ADMIN_ROUTES: AdminRoute[] = [
  {
    name: 'POST /api/v1/datasource',
    granted: 200,
    send: (app, headers, n) =>
      http('POST', `${app.url}/api/v1/datasource`, {
        socketPath: app.socketPath,
        headers,
        body: { config: { id: `added_${n}`, type: 'sqlite', connection: { path: fixture } } },
      }),
  },
  {
    name: 'DELETE /api/v1/datasource/{id}',
    granted: 200,
    send: async (app, headers, n) => {
      app.engine
        .get(DatasourceAdmin)
        .add({ id: `victim_${n}`, type: 'sqlite', connection: { path: fixture } });
      return http('DELETE', `${app.url}/api/v1/datasource/victim_${n}`, {
        socketPath: app.socketPath,
        headers,
      });
    },
  },
  {
    name: 'PUT /api/v1/settings/llm',
    granted: 200,
    send: (app, headers) =>
      http('PUT', `${app.url}/api/v1/settings/llm`, {
        socketPath: app.socketPath,
        headers,
        body: { provider: 'ollama', model: 'llama3.1:8b' },
      }),
  },
  {
    name: 'POST /api/v1/index/{id}',
    granted: 200,
    send: (app, headers) =>
      http('POST', `${app.url}/api/v1/index/shop`, { socketPath: app.socketPath, headers }),
  },
  {
    name: 'POST /api/v1/index-all',
    granted: 200,
    send: (app, headers) =>
      http('POST', `${app.url}/api/v1/index-all`, { socketPath: app.socketPath, headers }),
  },
  {
    name: 'DELETE /api/v1/index',
    granted: 200,
    send: (app, headers) =>
      http('DELETE', `${app.url}/api/v1/index`, { socketPath: app.socketPath, headers }),
  },
  {
    name: 'GET /api/v1/feedback',
    granted: 200,
    send: (app, headers) =>
      http('GET', `${app.url}/api/v1/feedback`, { socketPath: app.socketPath, headers }),
  },
  {
    name: 'GET /api/v1/verified-queries/suggestions',
    granted: 200,
    send: (app, headers) =>
      http('GET', `${app.url}/api/v1/verified-queries/suggestions`, { socketPath: app.socketPath, headers }),
  },
];

const base = { datasources: [{ id: 'shop', type: 'sqlite', connection: { path: fixture } }] };

describe.each(ADMIN_ROUTES)('$name', (route) => {
  describe('with api.role_header configured', () => {
    let app: RunningApp;
    beforeAll(async () => {
      app = await startApp({ ...base, api: { role_header: 'X-Roles' } });
    });
    afterAll(() => app.close());

    it('answers 401 naming the role keys when the request carries no role', async () => {
      const res = await route.send(app, {}, ++counter);
      expect(res.status).toBe(401);
      expect(res.text).toContain('api.role_header');
    });

    it('answers 403 when no role is admin', async () => {
      const res = await route.send(app, { 'X-Roles': 'analyst, viewer' }, ++counter);
      expect(res.status).toBe(403);
      expect(res.text).toContain('policies.admin_roles');
    });

    it('grants an admin role among several', async () => {
      const res = await route.send(app, { 'X-Roles': 'analyst,admin' }, ++counter);
      expect(res.status).toBe(route.granted);
    });
  });

  describe('with custom policies.admin_roles and a static api.role', () => {
    it('grants the static role when it is listed, and refuses it otherwise', async () => {
      const ok = await startApp({ ...base, api: { role: 'ops' }, policies: { admin_roles: ['ops'] } });
      const no = await startApp({ ...base, api: { role: 'admin' }, policies: { admin_roles: ['ops'] } });
      try {
        expect((await route.send(ok, {}, ++counter)).status).toBe(route.granted);
        expect((await route.send(no, {}, ++counter)).status).toBe(403);
      } finally {
        await ok.close();
        await no.close();
      }
    });
  });

  describe('with no role source configured', () => {
    it('grants a loopback client', async () => {
      const app = await startApp(base);
      try {
        expect((await route.send(app, {}, ++counter)).status).toBe(route.granted);
        // A role header means nothing when no role source is configured.
        expect((await route.send(app, { 'X-Roles': 'viewer' }, ++counter)).status).toBe(route.granted);
      } finally {
        await app.close();
      }
    });

    it('answers 403 to a non-loopback client, naming the keys to set', async () => {
      const app = await startApp(base, { listen: 'unix' });
      try {
        const res = await route.send(app, {}, ++counter);
        expect(res.status).toBe(403);
        expect(res.text).toMatch(/api\.role_header, api\.role or api\.trust_body_role/);
      } finally {
        await app.close();
      }
    });
  });
});

describe('api.trust_body_role', () => {
  it('reads roles from user_context only when trusted', async () => {
    const trusted = await startApp({ ...base, api: { trust_body_role: true } });
    try {
      const body = (n: number) => ({
        config: { id: `b_${n}`, type: 'sqlite', connection: { path: fixture } },
        user_context: { roles: ['admin'] },
      });
      expect((await http('POST', `${trusted.url}/api/v1/datasource`, { body: body(++counter) })).status).toBe(
        200,
      );
      const viewer = { ...body(++counter), user_context: { roles: ['viewer'] } };
      expect((await http('POST', `${trusted.url}/api/v1/datasource`, { body: viewer })).status).toBe(403);
      const none = { config: body(++counter).config };
      expect((await http('POST', `${trusted.url}/api/v1/datasource`, { body: none })).status).toBe(401);
    } finally {
      await trusted.close();
    }
  });

  it('the header wins over the body when both sources are configured', async () => {
    const app = await startApp({ ...base, api: { role_header: 'X-Roles', trust_body_role: true } });
    try {
      const res = await http('POST', `${app.url}/api/v1/datasource`, {
        headers: { 'X-Roles': 'viewer' },
        body: {
          config: { id: `h_${++counter}`, type: 'sqlite', connection: { path: fixture } },
          user_context: { roles: ['admin'] },
        },
      });
      expect(res.status).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe('routes that need no role', () => {
  it('serves health, ready and the datasource listing to anyone, even non-loopback', async () => {
    const app = await startApp({ ...base, api: { role_header: 'X-Roles' } }, { listen: 'unix' });
    try {
      for (const path of [
        '/health',
        '/ready',
        '/api/v1/datasource',
        '/api/v1/datasource/shop',
        '/api/v1/llm',
        '/api/v1/llm/default',
        '/api/v1/index/status',
      ]) {
        const res = await http('GET', `${app.url}${path}`, { socketPath: app.socketPath });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      }
    } finally {
      await app.close();
    }
  });
});
