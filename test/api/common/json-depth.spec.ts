/** The raw-body depth scan that runs before any JSON body is parsed (json-body.middleware.ts). */
import { jsonDepth } from '../../../src/api/common/json-body.middleware';

const depth = (text: string) => jsonDepth(Buffer.from(text, 'utf8'));

describe('jsonDepth', () => {
  it('counts nested objects and arrays, the deepest branch only', () => {
    expect(depth('1')).toBe(0);
    expect(depth('{}')).toBe(1);
    expect(depth('{"a":[1,{"b":[]}],"c":{}}')).toBe(4);
    expect(depth('[[],[[[]]],[]]')).toBe(4);
  });

  it('does not count brackets in strings, whatever the escapes around them', () => {
    expect(depth('{"a":"{[{["}')).toBe(1);
    expect(depth('{"a":"\\"{[{"}')).toBe(1); // an escaped quote does not end the string
    expect(depth('{"a\\\\":[{}]}')).toBe(3); // an escaped backslash does not escape the quote
    expect(depth('["\\u007b\\u005b", "é{ü["]')).toBe(1);
  });

  it('scans text whose multi-byte characters hold no ASCII byte', () => {
    expect(depth(`{"${'日本語'.repeat(100)}":${'['.repeat(70)}${']'.repeat(70)}}`)).toBe(71);
  });
});
