import { MASK, redact, redactDeep, registerSecret } from '../../src/config/redact';

describe('redact', () => {
  it.each([
    ['key sk-abcdefgh12345678 leaked', `key ${MASK} leaked`],
    ['Authorization: Bearer abc.def-ghi_jkl', `Authorization: Bearer ${MASK}`],
    ['header basic QWxhZGRpbjpvcGVu', `header basic ${MASK}`],
    ['postgres://app:s3cret-pw@db:5432/x', `postgres://app:${MASK}@db:5432/x`],
    ['PASSWORD=hunter22 next', `PASSWORD=${MASK} next`],
    ['{"api_key": "abc123"}', `{"api_key": "${MASK}"}`],
    ['x-api-key: zzz999', `x-api-key: ${MASK}`],
    ['secret=abc&x=1', `secret=${MASK}&x=1`],
    ['pwd: qwerty1', `pwd: ${MASK}`],
    ['?client_id=app&client_secret=s3cr3t&x=1', `?client_id=app&client_secret=${MASK}&x=1`],
    ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI', `AWS_SECRET_ACCESS_KEY=${MASK}`],
    ['{"refresh_token": "r-123456"}', `{"refresh_token": "${MASK}"}`],
    ['private_key=abcdef', `private_key=${MASK}`],
    ['db-password: hunter22', `db-password: ${MASK}`],
  ])('masks %j', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('leaves plain text alone, including words near the patterns', () => {
    for (const text of [
      'How many singers are there?',
      'SELECT count(*) FROM singer WHERE name = :name',
      'tokens: 1200 prompt, 80 completion',
      '{"prompt_tokens": 1200, "max_tokens": 80, "total_tokens": 1280}',
      'client_id=app',
      'https://example.org/docs',
      'risk-free and disk-based',
    ]) {
      expect(redact(text)).toBe(text);
    }
  });

  it('takes time linear in the length of a string made of many short dashed words', () => {
    // A guard against a hang, not a speed claim: with the URL scheme or the name prefix unbounded,
    // every one of the 200 000 word starts rescanned the rest of the string (over 100 s here).
    const text = 'a-'.repeat(200_000);
    const started = Date.now();
    expect(redact(text)).toBe(text);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('masks a registered secret wherever it appears, even in text no pattern would match', () => {
    registerSecret('plain-looking-value-42');
    expect(redact('value plain-looking-value-42 here')).toBe(`value ${MASK} here`);
    expect(redactDeep({ a: ['plain-looking-value-42'] })).toEqual({ a: [MASK] });
  });
});
