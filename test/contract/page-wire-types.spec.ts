/**
 * The playground page reads the API through types generated from the OpenAPI snapshot, never
 * through copies written by hand: the committed generated files must equal what the snapshot
 * generates now (`npm run openapi:write` rewrites both).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNAPSHOT_PATH } from '../support/openapi-document';
import { PAGE_TYPES_DIR, renderPageWireTypes } from '../support/page-wire-types';

it('the page wire types are the ones the OpenAPI snapshot generates', async () => {
  const fresh = await renderPageWireTypes(SNAPSHOT_PATH);
  expect(fresh.get('types.gen.ts')).toContain('export type QueryResponseDto = {');
  const committed = new Map(
    readdirSync(PAGE_TYPES_DIR).map((name) => [name, readFileSync(join(PAGE_TYPES_DIR, name), 'utf8')]),
  );
  expect(committed).toEqual(fresh);
});

it('wire.ts takes the page types from the generated files, not from copies', () => {
  const wire = readFileSync(join(__dirname, '..', '..', 'src', 'web', 'page', 'wire.ts'), 'utf8');
  expect(wire).toContain("from './generated/types.gen'");
  expect(wire).not.toMatch(/^export interface /m);
});
