import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { registerSecret } from '../../../src/config/redact';
import { LocalTraceStore } from '../../../src/engine/storage';
import { tempRoot } from '../../support/storage-helpers';

describe('LocalTraceStore', () => {
  const root = tempRoot('traces');
  const store = new LocalTraceStore(root.path);
  afterAll(() => root.remove());

  it('writes one redacted JSON file per run under the tenant folder', async () => {
    const known = 'hunter2-db-password';
    registerSecret(known);
    const trace = {
      question: 'How many orders?',
      at: new Date('2024-05-06T07:08:09.000Z'),
      calls: [{ provider_response: 'Invalid API key sk-abcdefghijklmnop1234' }],
      datasource: { url: `postgres://app:${known}@db:5432/shop` },
      rows: 3,
    };
    const path = await store.writeTrace('acme', 'run-42', trace);
    expect(path).toBe(join(root.path, 'acme', 'run-42.json'));
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('sk-abcdefghijklmnop1234');
    expect(text).not.toContain(known);
    const saved = JSON.parse(text);
    expect(saved.question).toBe('How many orders?');
    expect(saved.at).toBe('2024-05-06T07:08:09.000Z');
    expect(saved.calls[0].provider_response).toBe('Invalid API key ***');
    expect(saved.datasource.url).toBe('postgres://app:***@db:5432/shop');
    expect(saved.rows).toBe(3);
    // Written through a temporary name: only the final file remains.
    expect(readdirSync(join(root.path, 'acme'))).toEqual(['run-42.json']);
  });

  it('refuses ids that would leave the tenant folder', async () => {
    await expect(store.writeTrace('acme', '../escape', {})).rejects.toMatchObject({
      code: 'STORAGE_WRITE_FAILED',
    });
    await expect(store.writeTrace('a/b', 'run', {})).rejects.toMatchObject({ code: 'STORAGE_WRITE_FAILED' });
  });
});
