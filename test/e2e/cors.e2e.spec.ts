/** Spec 1, CORS: only configured origins, with credentials; none configured, no origin at all. */
import { http } from '../support/http';
import { makeSqliteFixture, startApp } from '../support/app';

const base = { datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }] };
const preflight = (origin: string) => ({
  Origin: origin,
  'Access-Control-Request-Method': 'POST',
  'Access-Control-Request-Headers': 'content-type',
});

describe('CORS', () => {
  it('allows a configured origin with credentials, and refuses any other', async () => {
    const app = await startApp({
      ...base,
      api: { cors_origins: ['https://app.example.com', 'http://localhost:3000'] },
    });
    try {
      const ok = await http('OPTIONS', `${app.url}/api/v1/datasource`, {
        headers: preflight('https://app.example.com'),
      });
      expect(ok.status).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(ok.headers['access-control-allow-credentials']).toBe('true');

      const get = await http('GET', `${app.url}/health`, { headers: { Origin: 'http://localhost:3000' } });
      expect(get.headers['access-control-allow-origin']).toBe('http://localhost:3000');

      const evil = await http('OPTIONS', `${app.url}/api/v1/datasource`, {
        headers: preflight('https://evil.example.com'),
      });
      expect(evil.headers['access-control-allow-origin']).toBeUndefined();
      // Same host, other port: another origin.
      const port = await http('GET', `${app.url}/health`, { headers: { Origin: 'http://localhost:3001' } });
      expect(port.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('allows no origin and no credentials when none is configured', async () => {
    const app = await startApp(base);
    try {
      const res = await http('OPTIONS', `${app.url}/api/v1/datasource`, {
        headers: preflight('https://app.example.com'),
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      const get = await http('GET', `${app.url}/health`, { headers: { Origin: 'https://app.example.com' } });
      expect(get.status).toBe(200);
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('refuses an origin with a path in the config', async () => {
    await expect(
      startApp({ ...base, api: { cors_origins: ['https://app.example.com/path'] } }),
    ).rejects.toThrow(/api\.cors_origins\[0\]/);
  });
});
