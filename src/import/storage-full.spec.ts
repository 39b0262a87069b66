import { SpoolWriteError } from './sources/body-spool';
import { StoreUnavailableError, TransactionTooLargeError } from '../graph/store-errors';
import {
  foundNoRoom,
  insufficientStorage,
  storeNotWritable,
  transactionTooLarge,
  WrittenFolder,
} from './storage-full';

const FOLDERS: WrittenFolder[] = [
  { name: 'temporary folder', setting: 'IMPORT_TEMP_DIR', folder: '/srv/tmp' },
  { name: "store's folder", setting: 'GRAPH_URL', folder: '/srv' },
];

function errno(code: string, file?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code, path: file });
}

describe('insufficientStorage', () => {
  it('knows a write that found no room by its code, also as the cause of another error', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL'])
      expect(foundNoRoom(errno(code))).toBe(true);
    expect(foundNoRoom(new SpoolWriteError('/x', errno('ENOSPC')))).toBe(true);
    expect(foundNoRoom(errno('EACCES'))).toBe(false);
    expect(foundNoRoom('ENOSPC')).toBe(false);
  });

  it('leaves any other failure as it is', async () => {
    expect(await insufficientStorage(errno('EIO', '/srv/tmp/x'), FOLDERS)).toBeUndefined();
  });

  it('answers 507 naming the innermost folder the failed write was in', async () => {
    const spool = await insufficientStorage(
      new SpoolWriteError('/srv/tmp/import-1-a/1.part', errno('EFBIG')),
      FOLDERS,
    );
    expect(spool?.getStatus()).toBe(507);
    expect(spool?.details).toEqual({
      message: 'No room to write in the temporary folder (IMPORT_TEMP_DIR): nothing was imported',
      folders: ['temporary folder'],
    });
    const store = await insufficientStorage(errno('ENOSPC', '/srv/archive.db-wal'), FOLDERS);
    expect(store?.details).toMatchObject({ folders: ["store's folder"] });
  });

  it('names every folder when the error names no file and none is nearly full', async () => {
    const folders = FOLDERS.map((folder) => ({ ...folder, folder: '/' }));
    const answer = await insufficientStorage(errno('SQLITE_FULL'), folders);
    expect(answer?.getStatus()).toBe(507);
    expect(answer?.message).toBe(
      "No room to write in the temporary folder (IMPORT_TEMP_DIR) or the store's folder (GRAPH_URL): nothing was imported",
    );
  });
});

describe('store refusals', () => {
  it('answers 413 naming the limit and the setting for a transaction the store refused memory', () => {
    const refused = new TransactionTooLargeError(
      'The import needs more memory than the Neo4j server allows',
      'db.memory.transaction.max',
      '2.0 MiB',
    );
    const answer = transactionTooLarge(refused);
    expect(answer?.getStatus()).toBe(413);
    expect(answer?.details).toEqual({
      message: 'The import needs more memory than the Neo4j server allows',
      setting: 'db.memory.transaction.max',
      limit: '2.0 MiB',
    });
    expect(transactionTooLarge(new Error('other'))).toBeUndefined();
  });

  it('answers 503 for a store that does not answer', () => {
    const answer = storeNotWritable(new StoreUnavailableError('The Neo4j store does not answer'));
    expect(answer?.getStatus()).toBe(503);
    expect(answer?.message).toBe('The Neo4j store does not answer');
  });
});
