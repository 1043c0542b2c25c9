/**
 * The trace store makes a tenant folder once and then writes straight into it; a folder removed
 * behind its back (by hand, by an operator's clean-up) is made again, and the trace still lands.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LocalTraceStore } from '../../../src/engine/storage';
import { tempRoot } from '../../support/storage-helpers';

describe('LocalTraceStore tenant folder', () => {
  const root = tempRoot('traces-folder');
  afterAll(() => root.remove());

  it('writes the next trace after its tenant folder was removed', async () => {
    const store = new LocalTraceStore(root.path);
    await store.writeTrace('acme', 'run-1', { n: 1 });
    rmSync(join(root.path, 'acme'), { recursive: true, force: true });
    const path = await store.writeTrace('acme', 'run-2', {
      n: 2,
      at: new Date('2024-01-02T03:04:05.000Z'),
      gone: undefined,
    });
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{\n  "n": 2,\n  "at": "2024-01-02T03:04:05.000Z"\n}\n');
  });
});

describe('LocalTraceStore.readTrace', () => {
  const root = tempRoot('traces-read');
  afterAll(() => root.remove());

  it("reads a run's trace back in its own tenant only, and null for anything else", async () => {
    const store = new LocalTraceStore(root.path);
    await store.writeTrace('acme', 'run-1', { question: 'q', roles: ['analyst'] });
    await expect(store.readTrace('acme', 'run-1')).resolves.toEqual({ question: 'q', roles: ['analyst'] });
    await expect(store.readTrace('other', 'run-1')).resolves.toBeNull();
    await expect(store.readTrace('acme', 'run-2')).resolves.toBeNull();
    await expect(store.readTrace('acme', '../acme/run-1')).resolves.toBeNull();
  });
});
