-- The `shop` datasource of config/postgres.yaml, config/multi-datasource.yaml and config/compose.yaml:
-- a small web shop in PostgreSQL. Run it once in an empty database:
--   createdb shop && psql -d shop -f config/seed/shop.postgres.sql      (or: npm run seed:examples)
-- docker-compose.yml runs it when the postgres volume is first created.

CREATE TABLE customers (
  customer_id integer PRIMARY KEY,
  name        text NOT NULL,
  email       text NOT NULL UNIQUE,
  country     text NOT NULL,
  signed_up   date NOT NULL
);
COMMENT ON TABLE customers IS 'People who bought from the web shop';

CREATE TABLE products (
  product_id integer PRIMARY KEY,
  name       text NOT NULL,
  category   text NOT NULL,
  price      numeric(10, 2) NOT NULL
);
COMMENT ON TABLE products IS 'Products on sale, with their current price in US dollars';

CREATE TABLE orders (
  order_id    integer PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers (customer_id),
  ordered_on  date NOT NULL,
  status      text NOT NULL CHECK (status IN ('paid', 'shipped', 'cancelled'))
);
COMMENT ON TABLE orders IS 'One row per order; cancelled orders are not revenue';

CREATE TABLE order_items (
  order_id   integer NOT NULL REFERENCES orders (order_id),
  product_id integer NOT NULL REFERENCES products (product_id),
  quantity   integer NOT NULL CHECK (quantity > 0),
  unit_price numeric(10, 2) NOT NULL,
  PRIMARY KEY (order_id, product_id)
);
COMMENT ON TABLE order_items IS 'Lines of an order; revenue is quantity * unit_price';

INSERT INTO customers VALUES
  (1, 'Ada Lovelace', 'ada@example.com', 'United Kingdom', '2023-11-02'),
  (2, 'Linus Torvalds', 'linus@example.org', 'Finland', '2023-12-14'),
  (3, 'Grace Hopper', 'grace@example.com', 'United States', '2024-01-05'),
  (4, 'Alan Turing', 'alan@example.net', 'United Kingdom', '2024-01-20'),
  (5, 'Margaret Hamilton', 'margaret@example.com', 'United States', '2024-02-11'),
  (6, 'Edsger Dijkstra', 'edsger@example.org', 'Netherlands', '2024-03-03');

INSERT INTO products VALUES
  (1, 'Mechanical keyboard', 'Accessories', 89.00),
  (2, 'USB-C dock', 'Accessories', 129.50),
  (3, '27-inch monitor', 'Displays', 289.99),
  (4, 'Laptop stand', 'Accessories', 39.90),
  (5, 'Noise-cancelling headphones', 'Audio', 199.00),
  (6, 'Webcam 4K', 'Video', 149.00);

INSERT INTO orders VALUES
  (1, 1, '2024-01-08', 'shipped'),
  (2, 2, '2024-01-19', 'shipped'),
  (3, 3, '2024-02-02', 'shipped'),
  (4, 1, '2024-02-17', 'cancelled'),
  (5, 4, '2024-02-28', 'shipped'),
  (6, 5, '2024-03-09', 'paid'),
  (7, 3, '2024-03-15', 'shipped'),
  (8, 6, '2024-03-22', 'paid'),
  (9, 2, '2024-03-30', 'paid');

INSERT INTO order_items VALUES
  (1, 1, 1, 89.00), (1, 4, 1, 39.90),
  (2, 3, 2, 289.99),
  (3, 5, 1, 199.00), (3, 2, 1, 129.50),
  (4, 6, 1, 149.00),
  (5, 1, 1, 89.00),
  (6, 3, 1, 279.99), (6, 4, 2, 39.90),
  (7, 6, 1, 149.00),
  (8, 5, 1, 189.00), (8, 1, 1, 89.00),
  (9, 2, 3, 129.50);
