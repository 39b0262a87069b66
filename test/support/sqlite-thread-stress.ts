/**
 * Worker threads and the main thread opening SQLite connections, iterating statements part way and
 * dropping them, round after round, with forced garbage collection between rounds:
 *
 *   node --expose-gc -r ./scripts/swc-register.js test/support/sqlite-thread-stress.ts \
 *     <driver> <rounds> <workers a round>
 *
 * `<driver>` is the folder of the SQLite binding's package (better-sqlite3's). A binding whose
 * statements cannot be finalised wherever V8 collects them aborts the process: better-sqlite3 12
 * built for Node 24 did, its statement destructors asserting in `node::RemoveEnvironmentCleanupHook`
 * that a Node environment is current. Hence a process of its own. On success it prints one JSON
 * line: the rounds run, how the workers ended and the rows each side read.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

const ROWS = 2_000;
/** Connections a thread opens in one go, each left with one unfinished iterator. */
const CONNECTIONS = 4;
/** Full-text matches each connection reads to the end. */
const MATCHES_READ = 5;
/** Rows taken from each iterator before it is dropped. */
const ROWS_TAKEN = 3;
/** The rows one `churn` reads, on either side. */
export const ROWS_A_CHURN = CONNECTIONS * (MATCHES_READ + ROWS_TAKEN);
/** Slices of garbage a thread makes, letting the event loop run after each, once it has churned. */
const SETTLE_SLICES = 10;

/**
 * `churn`: connections opened and left open, on each a statement prepared and dropped unused, one
 * run to the end, and one iterated part way and dropped, which keeps its connection busy until the
 * statement is finalised. Returns the rows read. Then `settle`: short-lived garbage made in slices with the event
 * loop let run between them, so that V8 collects the dropped statements from its own scheduled
 * tasks, where no JavaScript context is entered; better-sqlite3 12 aborted there on Node 24, and a
 * forced `gc()`, which runs inside one, would not have shown it. Shared verbatim by the main thread
 * and the workers.
 */
const CHURN_SOURCE = `
  function churn(Database, file, seed) {
    let rows = 0;
    for (let c = 0; c < ${CONNECTIONS}; c++) {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      db.prepare('SELECT body FROM notes WHERE id = ?');
      rows += db.prepare("SELECT rowid FROM notes_text WHERE notes_text MATCH 'camp' LIMIT ${MATCHES_READ}").all().length;
      const iterator = db.prepare('SELECT id, body FROM notes WHERE id > ? ORDER BY id').iterate(seed + c);
      for (let n = 0; n < ${ROWS_TAKEN}; n++) {
        if (!iterator.next().done) rows++;
      }
    }
    return rows;
  }

  async function settle() {
    for (let slice = 0; slice < ${SETTLE_SLICES}; slice++) {
      const garbage = [];
      for (let i = 0; i < 20000; i++) garbage.push({ i, text: 'garbage ' + i });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
`;

/**
 * A worker churns, settles, says how many rows it read, then either ends on its own (its
 * connections and iterators still open) or, told to `spin`, keeps churning until the main thread
 * terminates it.
 */
const WORKER_SOURCE = `
  const { parentPort, workerData } = require('node:worker_threads');
  const Database = require(workerData.driver);
  ${CHURN_SOURCE}
  (async () => {
    const rows = churn(Database, workerData.file, workerData.seed);
    await settle();
    parentPort.postMessage(rows);
    if (workerData.spin) {
      for (let seed = 0; ; seed++) churn(Database, workerData.file, seed % 100);
    }
  })();
`;

const { churn, settle } = new Function(`${CHURN_SOURCE}; return { churn, settle };`)() as {
  churn: (Database: typeof BetterSqlite3, file: string, seed: number) => number;
  settle: () => Promise<void>;
};

function createDatabase(Database: typeof BetterSqlite3, file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  db.exec("CREATE VIRTUAL TABLE notes_text USING fts5(body, content='notes', content_rowid='id')");
  const insert = db.prepare('INSERT INTO notes (id, body) VALUES (?, ?)');
  db.transaction(() => {
    for (let id = 1; id <= ROWS; id++)
      insert.run(id, `note ${id} on the ${id % 3 === 0 ? 'camp' : 'ghetto'}`);
  })();
  db.exec("INSERT INTO notes_text (notes_text) VALUES ('rebuild')");
  db.close();
}

interface WorkerOutcome {
  rows: number;
  terminated: boolean;
}

async function runWorker(driver: string, file: string, seed: number, spin: boolean): Promise<WorkerOutcome> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, seed, spin } });
  // Listened for from the start: a worker that ends on its own may exit before its message is handled.
  const exited = once(worker, 'exit') as Promise<[number]>;
  const failed = once(worker, 'error').then(([error]) => Promise.reject(error as Error));
  const [rows] = (await Promise.race([once(worker, 'message'), failed, exited])) as [number | undefined];
  if (rows === undefined) throw new Error(`worker ${seed} exited without reading`);
  if (spin) await worker.terminate();
  const [exitCode] = await Promise.race([exited, failed]);
  // terminate() ends a worker with code 1; one that ends on its own must end with 0.
  if (exitCode !== (spin ? 1 : 0)) throw new Error(`worker ${seed} exited with ${exitCode}`);
  return { rows, terminated: spin };
}

async function main(): Promise<void> {
  const [driver, roundsArgument, workersArgument] = process.argv.slice(2);
  const rounds = Number(roundsArgument);
  const workersPerRound = Number(workersArgument);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (driver === undefined || !(rounds > 0) || !(workersPerRound > 0) || gc === undefined) {
    throw new Error('usage: node --expose-gc … sqlite-thread-stress.ts <driver> <rounds> <workers a round>');
  }
  // The binding under test is named at run time, as the workers load it.
  const Database = createRequire(__filename)(driver) as typeof BetterSqlite3;
  const folder = mkdtempSync(path.join(tmpdir(), 'sqlite-thread-stress-'));
  try {
    const file = path.join(folder, 'stress.db');
    createDatabase(Database, file);
    let workerRows = 0;
    let mainRows = 0;
    let terminated = 0;
    for (let round = 0; round < rounds; round++) {
      const workers = Array.from({ length: workersPerRound }, (_, w) =>
        runWorker(driver, file, round * workersPerRound + w, w % 2 === 1),
      );
      // The main thread churns while the workers start, read and end.
      mainRows += churn(Database, file, round);
      await settle();
      for (const outcome of await Promise.all(workers)) {
        workerRows += outcome.rows;
        if (outcome.terminated) terminated++;
      }
      gc();
    }
    console.log(
      JSON.stringify({ rounds, workers: rounds * workersPerRound, terminated, workerRows, mainRows }),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
