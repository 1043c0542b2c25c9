import { InvalidPageRequestError, validatePageRequest } from '../../../src/engine/storage';

describe('validatePageRequest', () => {
  it('applies the defaults offset 0 and limit 100', () => {
    expect(validatePageRequest()).toEqual({ offset: 0, limit: 100 });
  });

  it('accepts query-string text as well as numbers', () => {
    expect(validatePageRequest({ offset: '20', limit: '5' })).toEqual({ offset: 20, limit: 5 });
  });

  it('cuts the limit to 1000 and keeps 1 as the smallest page', () => {
    expect(validatePageRequest({ limit: 1001 }).limit).toBe(1000);
    expect(validatePageRequest({ limit: 1 }).limit).toBe(1);
  });

  it.each([
    { offset: '-1' },
    { offset: 'ten' },
    { limit: '0' },
    { limit: '2.5' },
    { limit: '' },
    { offset: 2 ** 60 },
  ])('rejects %p', (page) => {
    expect(() => validatePageRequest(page)).toThrow(InvalidPageRequestError);
  });
});
