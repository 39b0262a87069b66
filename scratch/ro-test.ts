import { SqliteGraphStore } from '../src/graph/sqlite/sqlite-graph-store';
import { chmodSync, mkdtempSync } from 'node:fs';
import Database from 'better-sqlite3';
async function main() {
  const dir = mkdtempSync('/tmp/rotest-');
  const file = dir + '/a.db';
  const s = await SqliteGraphStore.open(file);
  await s.close();
  chmodSync(file, 0o444);
  try {
    const s2 = await SqliteGraphStore.open(file);
    console.log('opened');
    await s2.ping(); console.log('ping ok');
    await s2.write(async (tx) => { await tx.putItems([{ bundle: { id: 'x', type: 'Repository', data: {}, relations: {} }, hash: 'x' }]); }).then(() => console.log('write ok'), (e) => console.log('write failed', e.code, e.message));
    const db = new Database(file);
    try { db.prepare('BEGIN IMMEDIATE').run(); console.log('begin immediate ok'); db.prepare('ROLLBACK').run(); } catch (e: any) { console.log('begin immediate', e.code); }
    const q = db.pragma('quick_check'); console.log(q);
  } catch (e: any) { console.log('open failed', e.code, e.message); }
}
main();
