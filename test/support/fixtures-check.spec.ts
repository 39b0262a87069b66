import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { missingFolders } from './fixtures-check';

describe('the fixtures check run before every test run', () => {
  it('names every folder of the reference test files that is missing', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'fixtures-'));
    expect(missingFolders(root)).toEqual(['ehri', 'jsonapi', 'schemas']);
    mkdirSync(path.join(root, 'ehri'));
    expect(missingFolders(root)).toEqual(['jsonapi', 'schemas']);
  });

  it('finds them all beside this checkout', () => {
    expect(missingFolders(path.resolve(__dirname, '../../../shared/fixtures'))).toEqual([]);
  });
});
