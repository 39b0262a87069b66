import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { FROM_SOURCE } from '../support/service-process';
import { ROWS_A_CHURN } from '../support/sqlite-thread-stress';

const run = promisify(execFile);

const ROUNDS = 4;
const WORKERS_A_ROUND = 4;
/** Seconds the stress run may take on a loaded machine; alone it takes a few. */
const TIME_LIMIT_SECONDS = 90;

/**
 * The SQLite binding under worker threads and garbage collection (test/support/sqlite-thread-stress.ts),
 * in a process of its own so that a native abort (better-sqlite3 12 on Node 24 aborted in
 * `node::RemoveEnvironmentCleanupHook` when V8 collected a dropped statement) fails this test rather
 * than killing Jest.
 */
describe('SQLite binding: worker threads, dropped statements and garbage collection', () => {
  it(
    'survives short-lived workers and the main thread dropping unfinished statements',
    async () => {
      let outcome: { code: number | string; signal: string | null; stdout: string; stderr: string };
      try {
        const { stdout, stderr } = await run(
          process.execPath,
          [
            '--expose-gc',
            ...FROM_SOURCE,
            path.join(__dirname, '..', 'support', 'sqlite-thread-stress.ts'),
            path.dirname(require.resolve('better-sqlite3/package.json')),
            String(ROUNDS),
            String(WORKERS_A_ROUND),
          ],
          { timeout: TIME_LIMIT_SECONDS * 1000 },
        );
        outcome = { code: 0, signal: null, stdout, stderr };
      } catch (error) {
        const failed = error as {
          code: number | string;
          signal: string | null;
          stdout: string;
          stderr: string;
        };
        outcome = { code: failed.code, signal: failed.signal, stdout: failed.stdout, stderr: failed.stderr };
      }
      if (outcome.code !== 0 || outcome.signal !== null) {
        // Its stderr in the failure: an abort's assertion and native stack trace.
        throw new Error(
          `the stress run ended with ${outcome.signal ?? `code ${outcome.code}`}:\n${outcome.stderr}`,
        );
      }
      const workers = ROUNDS * WORKERS_A_ROUND;
      expect(JSON.parse(outcome.stdout.trim().split('\n').at(-1) ?? '')).toEqual({
        rounds: ROUNDS,
        workers,
        terminated: workers / 2,
        workerRows: workers * ROWS_A_CHURN,
        mainRows: ROUNDS * ROWS_A_CHURN,
      });
    },
    (TIME_LIMIT_SECONDS + 10) * 1000,
  );
});
