const Database = require('better-sqlite3');
const db = new Database('/tmp/qo-test.db');
db.exec('CREATE TABLE IF NOT EXISTS t(x)');
db.pragma('query_only = 1');
try { db.prepare('BEGIN IMMEDIATE').run(); console.log('begin ok'); db.prepare('ROLLBACK').run(); } catch (e) { console.log('begin', e.code); }
try { db.prepare('INSERT INTO t VALUES (1)').run(); } catch (e) { console.log('insert', e.code, e.message); }
