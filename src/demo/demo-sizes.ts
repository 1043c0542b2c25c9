/** How big the generated demo is. The default gives a fact table (order_items) of about 1.07 million rows. */
export interface DemoSizes {
  readonly customers: number;
  readonly products: number;
  readonly orders: number;
}

export const DEFAULT_DEMO_SIZES: DemoSizes = { customers: 60_000, products: 1_500, orders: 430_000 };

/** Smallest sizes that still give every category, store and country some data. */
const MIN_SIZES: DemoSizes = { customers: 200, products: 100, orders: 1_000 };

export const MAX_DEMO_SCALE = 10;

/** Sizes for a fraction (or multiple) of the default; tests use a small scale to stay fast. */
export function demoSizesForScale(scale: number): DemoSizes {
  if (!Number.isFinite(scale) || scale <= 0 || scale > MAX_DEMO_SCALE) {
    throw new RangeError(`demo scale must be a number in (0, ${MAX_DEMO_SCALE}], got ${scale}`);
  }
  const size = (key: keyof DemoSizes) =>
    Math.max(MIN_SIZES[key], Math.round(DEFAULT_DEMO_SIZES[key] * scale));
  return { customers: size('customers'), products: size('products'), orders: size('orders') };
}
