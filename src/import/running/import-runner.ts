import { ImportExecution } from './import-execution';
import { ImportTask, ImportTaskResult, RunControl } from './import-task';

/**
 * Where imports run (the one seam between the HTTP side and the import run): in the import
 * worker's thread (`ThreadImportRunner`, the default, so that reading, building and writing never
 * hold up the event loop that answers requests), or in process (`InlineImportRunner`, chosen with
 * `IMPORT_RUNNER=inline`: what tests that watch the run's own objects need). Both run one import
 * at a time; the caller queues them.
 */
export abstract class ImportRunner {
  abstract run(task: ImportTask, control: RunControl): Promise<ImportTaskResult>;

  /** Ends what the runner started (a worker); a run in progress fails. */
  async close(): Promise<void> {}
}

export class InlineImportRunner extends ImportRunner {
  constructor(private readonly execution: ImportExecution) {
    super();
  }

  run(task: ImportTask, control: RunControl): Promise<ImportTaskResult> {
    return this.execution.run(task, control);
  }
}
