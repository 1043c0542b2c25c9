/**
 * `npm run seed:examples`: creates what config/multi-datasource.yaml and config/postgres.yaml read,
 * from config/seed/: the PostgreSQL database `shop` and the MySQL/MariaDB database `crm` on
 * 127.0.0.1 (as postgres and root, with PG_PASSWORD and MYSQL_PASSWORD when set, like the configs)
 * and the SQLite file data/inventory.sqlite. A database that already has tables is left as it is.
 */
import { resolve } from 'node:path';
import { seedMysql, seedPostgres, seedSqlite } from './example-seeds';

const secret = (name: string) => (process.env[name] ? `:${encodeURIComponent(process.env[name])}` : '');

async function main() {
  const steps: [string, () => Promise<string> | string][] = [
    [
      'shop (PostgreSQL)',
      () => seedPostgres(`postgres://postgres${secret('PG_PASSWORD')}@127.0.0.1:5432/shop`),
    ],
    ['crm (MySQL/MariaDB)', () => seedMysql(`mysql://root${secret('MYSQL_PASSWORD')}@127.0.0.1:3306/crm`)],
    [
      'inventory (SQLite, data/inventory.sqlite)',
      () => seedSqlite(resolve(__dirname, '..', '..', 'data', 'inventory.sqlite')),
    ],
  ];
  let failed = 0;
  for (const [name, step] of steps) {
    try {
      console.log(`${name}: ${await step()}`);
    } catch (err) {
      failed++;
      console.error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  process.exit(failed ? 1 : 0);
}

void main();
