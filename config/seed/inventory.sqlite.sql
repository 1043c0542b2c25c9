-- The `inventory` datasource of config/multi-datasource.yaml: warehouses, stock levels and purchase
-- orders in a SQLite file. Create data/inventory.sqlite from it with `npm run seed:examples`
-- (or: sqlite3 data/inventory.sqlite < config/seed/inventory.sqlite.sql).

CREATE TABLE warehouses (
  warehouse_id INTEGER PRIMARY KEY,
  name         TEXT NOT NULL,
  city         TEXT NOT NULL
);

CREATE TABLE stock_levels (
  warehouse_id  INTEGER NOT NULL REFERENCES warehouses (warehouse_id),
  sku           TEXT NOT NULL,
  product_name  TEXT NOT NULL,
  quantity      INTEGER NOT NULL,
  reorder_level INTEGER NOT NULL,
  PRIMARY KEY (warehouse_id, sku)
);

CREATE TABLE purchase_orders (
  po_id        INTEGER PRIMARY KEY,
  warehouse_id INTEGER NOT NULL REFERENCES warehouses (warehouse_id),
  sku          TEXT NOT NULL,
  quantity     INTEGER NOT NULL,
  ordered_on   TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('open', 'received', 'cancelled'))
);

INSERT INTO warehouses VALUES (1, 'North hub', 'Chicago'), (2, 'West hub', 'Sacramento'), (3, 'EU hub', 'Rotterdam');

INSERT INTO stock_levels VALUES
  (1, 'KB-100', 'Mechanical keyboard', 140, 50),
  (1, 'DK-200', 'USB-C dock', 35, 40),
  (2, 'MN-270', '27-inch monitor', 22, 25),
  (2, 'KB-100', 'Mechanical keyboard', 60, 50),
  (3, 'HP-500', 'Noise-cancelling headphones', 75, 30),
  (3, 'WC-400', 'Webcam 4K', 12, 20);

INSERT INTO purchase_orders VALUES
  (1, 1, 'DK-200', 100, '2024-03-02', 'open'),
  (2, 2, 'MN-270', 40, '2024-02-21', 'received'),
  (3, 3, 'WC-400', 60, '2024-03-12', 'open'),
  (4, 1, 'KB-100', 200, '2024-01-15', 'received');
