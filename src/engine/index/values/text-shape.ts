/**
 * What a text column's stored texts are when they are not words: numbers, or dates, in a form that
 * sorts as text (ISO: '2021-03-15') or not ('03/15/2021', '15.3.2021', 'March 15, 2021'). A text
 * column holding them compares and sorts as text ('10' < '9'), so the planner is told to cast or
 * parse. Read from a column's samples; values that stand for nothing ('null', 'n/a') are left out.
 */
export type TextShape = { readonly kind: 'number' } | { readonly kind: 'date'; readonly sortable: boolean };

/** Fewer samples than this say nothing of a column's shape. */
const MIN_SAMPLES = 2;

const NOTHING = new Set(['', 'null', 'none', 'n/a', 'na', '-', '--', '?', 'nan', 'unknown']);
const NUMBER = /^[-+]?(\d+|\d{1,3}(,\d{3})+)(\.\d+)?%?$|^[-+]?\.\d+$/;
const TIME = String.raw`([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?( ?[ap]\.?m\.?)?)?(z|[+-]\d{2}(:?\d{2})?)?`;
/** Year, month and day in that order, two-digit month and day: sorts as text. */
const SORTABLE_DATE = new RegExp(String.raw`^\d{4}([-/.])\d{2}\1\d{2}${TIME}$`, 'i');
/** Any other numeric date: day or month first, or one-digit parts. */
const NUMERIC_DATE = new RegExp(
  String.raw`^(\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{4}[-/.]\d{1,2}[-/.]\d{1,2})${TIME}$`,
  'i',
);
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
/** 'March 15, 2021', '15 Mar 2021', 'Mar-2021'. */
const NAMED_DATE = new RegExp(
  String.raw`^((\d{1,2}(st|nd|rd|th)?[ -])?${MONTH}([ -]\d{1,2}(st|nd|rd|th)?)?,?[ -]\d{2,4})${TIME}$`,
  'i',
);

export function textShape(samples: readonly unknown[]): TextShape | null {
  const texts = samples
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim())
    .filter((v) => !NOTHING.has(v.toLowerCase()));
  if (texts.length < MIN_SAMPLES) return null;
  if (texts.every((v) => NUMBER.test(v))) return { kind: 'number' };
  if (texts.every((v) => SORTABLE_DATE.test(v))) return { kind: 'date', sortable: true };
  if (texts.every((v) => SORTABLE_DATE.test(v) || NUMERIC_DATE.test(v) || NAMED_DATE.test(v)))
    return { kind: 'date', sortable: false };
  return null;
}
