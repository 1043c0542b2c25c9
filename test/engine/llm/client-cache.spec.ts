/** The client LRU: sharing by key, eviction closing unheld clients at once and held ones at release. */
import { ClientCache } from '../../../src/engine/llm/client-cache';
import type { ModelClient } from '../../../src/engine/llm/providers/provider';

function counting(): ModelClient & { closes: number } {
  const c = {
    closes: 0,
    complete: () => Promise.reject(new Error('not called in these tests')),
    close: async () => {
      c.closes += 1;
    },
  };
  return c;
}

test('equal keys share one client; an evicted client closes at once when unheld, at its last release when held', async () => {
  const cache = new ClientCache(2);
  const made: ReturnType<typeof counting>[] = [];
  const make = () => {
    const c = counting();
    made.push(c);
    return c;
  };
  const a1 = cache.acquire('a', make);
  const a2 = cache.acquire('a', make);
  expect(a2).toBe(a1);
  expect(made).toHaveLength(1);
  const b = cache.acquire('b', make);
  cache.release(b); // b unheld, still cached
  cache.acquire('c', make); // evicts the least recently used: a (held twice)
  cache.acquire('d', make); // evicts b (unheld): closed now
  expect(made.map((m) => m.closes)).toEqual([0, 1, 0, 0]);
  cache.release(a1);
  expect(cache.isOpen(a1)).toBe(true);
  cache.release(a2);
  expect(cache.isOpen(a1)).toBe(false);
  await cache.closeAll();
  expect(made.map((m) => m.closes)).toEqual([1, 1, 1, 1]);
});
