/**
 * The e2e bench's reference for the storage folder's file-creation cost must leave its files in
 * place: deleting them would slow the very runs it is measured beside on ext4 without a journal
 * (see file-create-reference.ts).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileCreateCpuMs } from '../../bench/e2e/file-create-reference';

describe('bench e2e file-creation reference', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nl2sql-file-create-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('measures a positive cost per file and keeps the files it made', () => {
    expect(fileCreateCpuMs(dir, 'before')).toBeGreaterThan(0);
    expect(fileCreateCpuMs(dir, 'after')).toBeGreaterThan(0);
    expect(readdirSync(dir).sort()).toEqual(['file-create-reference-after', 'file-create-reference-before']);
    expect(readdirSync(join(dir, 'file-create-reference-before'))).toHaveLength(300);
  });

  it('refuses a name it already used instead of measuring files that exist', () => {
    fileCreateCpuMs(dir, 'once');
    expect(() => fileCreateCpuMs(dir, 'once')).toThrow(/EEXIST/);
  });
});
