import { dot } from '../../../src/engine/index/embedders/embedder';
import { LocalEmbedder } from '../../../src/engine/index/embedders/local-embedder';
import { splitWords, stem } from '../../../src/engine/index/text/tokens';

describe('local embedder', () => {
  const embedder = new LocalEmbedder();

  it('splits snake_case, camelCase and digits the same way', () => {
    expect(splitWords('customer_firstName2')).toEqual(['customer', 'first', 'name', '2']);
    expect(splitWords('HTTPServerLog')).toEqual(['http', 'server', 'log']);
    expect(stem('countries')).toBe('country');
    expect(stem('flights')).toBe('flight');
  });

  it('is deterministic and normalised', async () => {
    const [a, b] = await embedder.embed(['order date', 'order date']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
  });

  it('puts an identifier near the words it is made of, and an attribute near the adjectives that ask about it', async () => {
    const [q, id, other] = await embedder.embed([
      'what is the order date',
      'column orderDate',
      'column unit_price',
    ]);
    expect(dot(q!, id!)).toBeGreaterThan(dot(q!, other!));
    const [oldest, age, price] = await embedder.embed(['who is the oldest', 'age', 'price']);
    expect(dot(oldest!, age!)).toBeGreaterThan(dot(oldest!, price!));
    const [qty, quantity] = await embedder.embed(['qty', 'quantity']);
    expect(dot(qty!, quantity!)).toBeGreaterThan(0.9);
  });

  it('counts its use', async () => {
    const e = new LocalEmbedder(64);
    await e.embed(['a', 'b']);
    expect(e.usage()).toEqual({ calls: 1, texts: 2, inputTokens: 0 });
    expect(e.model).toBe('local-hash-v1-64');
  });
});
