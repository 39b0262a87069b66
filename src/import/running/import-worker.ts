import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { JobCancelled, rejectOnAbort } from '../../import-jobs/job-cancelled';
import { errorBodyOf, ImportInterruptedError } from '../import-errors';
import { ModuleWorkerData } from '../module-worker';
import { ImportExecution } from './import-execution';
import { RunControl } from './import-task';
import { ImportWorkerModule } from './import-worker.module';
import { FromImportWorker, ImportWorkerInput, ToImportWorker } from './runner-messages';

/**
 * The import worker's thread (`ThreadImportRunner` starts it): runs the imports it is sent, one at
 * a time, telling their progress, and stops one when told to.
 */

const logger = new Logger('ImportWorker');

function send(port: MessagePort, message: FromImportWorker): void {
  port.postMessage(message);
}

/** The run in progress: how to cancel it and let it go on past its first batch. */
interface Current {
  aborter: AbortController;
  goOn?: () => void;
}

/**
 * Resolves once the runner answers (the callback `expect` is given is called, on its message);
 * rejects if the run is cancelled first.
 */
function untilAnswered(running: Current, expect: (answer: () => void) => void): Promise<void> {
  return Promise.race([new Promise<void>(expect), rejectOnAbort(running.aborter.signal)]);
}

async function serve(port: MessagePort, input: ImportWorkerInput): Promise<void> {
  const silent = input.config.logLevel === 'silent';
  const context = await NestFactory.createApplicationContext(ImportWorkerModule.of(input.config), {
    logger: silent ? false : ['error', 'warn'],
    abortOnError: false,
  });
  const execution = context.get(ImportExecution);
  let current: Current | undefined;
  port.on('message', (message: ToImportWorker) => {
    if (message.type === 'cancel') {
      // A shutdown's cancel is stored as interrupted, a user's as cancelled (`outcomeOf`).
      current?.aborter.abort(
        message.interrupted ? new ImportInterruptedError() : new JobCancelled(message.reason),
      );
    } else if (message.type === 'go-on') current?.goOn?.();
    else void run(message.task);
  });
  const run = async (task: Extract<ToImportWorker, { type: 'run' }>['task']) => {
    const running: Current = { aborter: new AbortController() };
    current = running;
    const control: RunControl = {
      signal: running.aborter.signal,
      report: (report) => send(port, { type: 'progress', report }),
      firstBatchWritten: () => {
        const answered = untilAnswered(running, (answer) => (running.goOn = answer));
        send(port, { type: 'first-batch' });
        return answered;
      },
    };
    try {
      send(port, { type: 'done', result: await execution.run(task, control) });
    } catch (error) {
      const body = errorBodyOf(error);
      // The error body of a server fault says nothing of it: what it was is logged here.
      if (body.status === 500) logger.error({ err: error, msg: 'An import failed', logId: task.logId });
      const cancelled = error instanceof JobCancelled || error instanceof ImportInterruptedError;
      send(port, { type: 'failed', error: body, cancelled });
    } finally {
      current = undefined;
    }
  };
  send(port, { type: 'ready' });
}

if (parentPort === null) throw new Error('import-worker runs only as a worker thread');
const port = parentPort;
serve(port, (workerData as ModuleWorkerData<ImportWorkerInput>).input).catch((error: unknown) => {
  // The runner sees the thread end before it was ready, and fails the job it has.
  process.stderr.write(`The import worker could not start: ${String(error)}\n`);
  process.exit(1);
});
