import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WalCheckpointer } from './wal-checkpointer';

describe('WalCheckpointer', () => {
  let folder: string;
  let file: string;
  let db: Database.Database;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'wal-checkpointer-'));
    file = path.join(folder, 'archive.db');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE note (text TEXT)');
  });

  afterEach(() => {
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const writeMegabytes = (megabytes: number) => {
    const insert = db.prepare('INSERT INTO note (text) VALUES (?)');
    db.transaction(() => {
      for (let row = 0; row < megabytes * 16; row++) insert.run('x'.repeat(64 * 1024));
    })();
  };

  it('copies committed pages into the database file while a read transaction is open', async () => {
    writeMegabytes(4);
    expect(statSync(file).size).toBeLessThan(1024 * 1024);
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM note').get();

    const checkpointer = await WalCheckpointer.start(file, () => db.pragma('wal_checkpoint(PASSIVE)'));
    checkpointer.request();
    await checkpointer.close();

    expect(statSync(file).size).toBeGreaterThan(4 * 1024 * 1024);
    expect(reader.prepare('SELECT count(*) FROM note').pluck().get()).toBe(64);
    reader.exec('COMMIT');
    reader.close();
  });

  it('empties the WAL file when no reader is using it', async () => {
    writeMegabytes(2);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(2 * 1024 * 1024);
    const checkpointer = await WalCheckpointer.start(file, () => db.pragma('wal_checkpoint(PASSIVE)'));
    checkpointer.request();
    await checkpointer.close();
    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(db.prepare('SELECT count(*) FROM note').pluck().get()).toBe(32);
  });

  it('checkpoints in place when its worker cannot', async () => {
    writeMegabytes(2);
    const checkpointer = await WalCheckpointer.start(path.join(folder, 'missing.db'), () =>
      db.pragma('wal_checkpoint(PASSIVE)'),
    );
    checkpointer.request();
    await checkpointer.close();
    expect(statSync(file).size).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('runs a checkpoint asked for while one is under way after it', async () => {
    const checkpointer = await WalCheckpointer.start(file, () => db.pragma('wal_checkpoint(PASSIVE)'));
    checkpointer.request();
    writeMegabytes(2);
    checkpointer.request();
    await checkpointer.close();
    expect(statSync(file).size).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('is ready only once its worker has loaded the SQLite binding, so no thread is stopped while it loads', async () => {
    // A binding that takes a moment to load, and notes when it has.
    const loaded = path.join(folder, 'loaded');
    const driver = path.join(folder, 'slow-binding.js');
    writeFileSync(
      driver,
      `const until = Date.now() + 300;
       while (Date.now() < until);
       require('node:fs').writeFileSync(${JSON.stringify(loaded)}, '');
       module.exports = require(${JSON.stringify(require.resolve('better-sqlite3'))});`,
    );
    const checkpointer = await WalCheckpointer.start(
      file,
      () => db.pragma('wal_checkpoint(PASSIVE)'),
      driver,
    );
    expect(existsSync(loaded)).toBe(true);
    writeMegabytes(1);
    checkpointer.request();
    await checkpointer.close();
    expect(statSync(file).size).toBeGreaterThan(1024 * 1024);
  });

  it('checkpoints in place when its worker ends in the middle of a checkpoint', async () => {
    // A binding whose checkpoint ends the worker's thread.
    const driver = path.join(folder, 'dying-binding.js');
    writeFileSync(
      driver,
      `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       module.exports = class extends Database {
         pragma() { process.exit(3); }
       };`,
    );
    const checkpointer = await WalCheckpointer.start(
      file,
      () => db.pragma('wal_checkpoint(PASSIVE)'),
      driver,
    );
    writeMegabytes(1);
    checkpointer.request();
    await checkpointer.close();
    expect(statSync(file).size).toBeGreaterThan(1024 * 1024);
  });
});
