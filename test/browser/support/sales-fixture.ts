/** A SQLite file with 90 days of sales for two regions: enough rows to page, dates to draw lines. */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SALES_DAYS = 90;

export function makeSalesFixture(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-sales-')), 'sales.sqlite');
  const db = new Database(path);
  db.exec(
    `CREATE TABLE daily_sales (day TEXT NOT NULL, region TEXT NOT NULL, orders INTEGER NOT NULL, revenue REAL NOT NULL)`,
  );
  const insert = db.prepare('INSERT INTO daily_sales VALUES (?, ?, ?, ?)');
  const start = Date.UTC(2024, 0, 1);
  for (let d = 0; d < SALES_DAYS; d++) {
    const day = new Date(start + d * 86_400_000).toISOString().slice(0, 10);
    // A weekly rhythm and a slow rise, so the line chart has a shape to look at.
    const base = 1000 + d * 12 + (d % 7 < 2 ? 400 : 0);
    insert.run(day, 'North', 20 + (d % 5), base);
    insert.run(day, 'South', 15 + (d % 3), Math.round(base * 0.7));
  }
  db.close();
  return path;
}
