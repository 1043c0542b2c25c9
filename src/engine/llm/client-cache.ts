/**
 * The LRU of model clients (16 by default) keyed on each agent's resolved settings (see
 * resolve.ts `clientCacheKey`). Agents and sets with equal settings share one client. An LLM set
 * holds the clients it uses; a client evicted from the LRU is closed only once no set holds it,
 * so a run still going on an old set never sees its client closed under it.
 */
import { LRUCache } from 'lru-cache';
import type { ModelClient } from './providers/provider';

export const CLIENT_CACHE_SIZE = 16;

export interface CachedClient {
  readonly key: string;
  readonly client: ModelClient;
}

interface Entry extends CachedClient {
  holds: number;
  evicted: boolean;
  closed: boolean;
}

export class ClientCache {
  private readonly lru: LRUCache<string, Entry>;
  /** Evicted but still held by a set: closed at the last release. */
  private readonly pending = new Set<Entry>();
  private readonly closing: Promise<void>[] = [];

  constructor(readonly capacity = CLIENT_CACHE_SIZE) {
    this.lru = new LRUCache<string, Entry>({
      max: capacity,
      dispose: (entry) => {
        entry.evicted = true;
        if (entry.holds === 0) this.close(entry);
        else this.pending.add(entry);
      },
    });
  }

  /** The client for these settings, created on a miss; the caller holds it until `release`. */
  acquire(key: string, create: () => ModelClient): CachedClient {
    let entry = this.lru.get(key);
    if (!entry) {
      entry = { key, client: create(), holds: 0, evicted: false, closed: false };
      this.lru.set(key, entry);
    }
    entry.holds += 1;
    return entry;
  }

  release(client: CachedClient): void {
    const entry = client as Entry;
    entry.holds = Math.max(0, entry.holds - 1);
    if (entry.evicted && entry.holds === 0) {
      this.pending.delete(entry);
      this.close(entry);
    }
  }

  /** Whether a client is still open (for the engine check and tests). */
  isOpen(client: CachedClient): boolean {
    return !(client as Entry).closed;
  }

  get size(): number {
    return this.lru.size;
  }

  /** Closes every client, held or not (engine close). */
  async closeAll(): Promise<void> {
    for (const entry of [...this.lru.values(), ...this.pending]) {
      entry.evicted = true;
      this.close(entry);
    }
    this.pending.clear();
    // clear() would dispose again; the entries are already closed.
    this.lru.clear();
    await Promise.all(this.closing);
  }

  private close(entry: Entry): void {
    if (entry.closed) return;
    entry.closed = true;
    this.closing.push(entry.client.close().catch(() => undefined));
  }
}
