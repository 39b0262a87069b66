import { Inject, Injectable, Logger } from '@nestjs/common';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { GraphReader, GraphStore, GraphWriter } from '../../graph/graph-store';
import { TokenStore } from '../../graph/token-store';
import { ChangeRecorder } from '../../import-logs/change-records';
import { ImportLogService } from '../../import-logs/import-log.service';
import { ImportLogDocument } from '../../import-logs/import-log.types';
import { Ids } from '../../import-logs/walked-ids';
import { FormatRegistry } from '../format-registry';
import { TokenRevokedError } from '../import-errors';
import {
  FinishResult,
  FormatReader,
  ImportContext,
  ImportSource,
  ReadLimits,
} from '../formats/format-reader';
import { ImportRequestParams } from '../import-params';
import { ImportRun, RunCounts } from '../import-run';
import { ImportScope, loadScope } from '../import-scope';
import { jsonChunks } from '../json-chunks';
import { PhaseClock } from '../phase-clock';
import { RunLedger } from '../run-ledger';
import { ImportRoots } from '../sources/import-roots';
import { requestSources } from '../sources/request-sources';
import { ImportWorkspace } from '../sources/workspace';
import { explainedFailure, WrittenFolder, writtenFoldersOf } from '../storage-full';
import { ImportPlan, ImportTask, ImportTaskResult, RunControl } from './import-task';

/** Progress is told at most this often (besides phase changes): a message each, from a worker. */
const REPORT_INTERVAL_MS = 200;

/** Everything the transaction needs, prepared before it starts so the writer is held briefly. */
interface Prepared {
  reader: FormatReader;
  params: ImportRequestParams;
  sources: ImportSource[];
}

/** Counts a run's bytes read, in process or by a reading worker, and tells them now and then. */
class ByteCount {
  read = 0;
  private told = 0;

  constructor(private readonly control: RunControl) {}

  /** The source with its bytes counted as they are read, wherever that happens. */
  counted(source: ImportSource): ImportSource {
    const add = (bytes: number) => this.add(bytes);
    return {
      ...source,
      onRead: add,
      async *bytes() {
        for await (const chunk of source.bytes()) {
          add(chunk.length);
          yield chunk;
        }
      },
    };
  }

  private add(bytes: number): void {
    this.read += bytes;
    const now = Date.now();
    if (now - this.told < REPORT_INTERVAL_MS) return;
    this.told = now;
    this.control.report({ bytesRead: this.read });
  }
}

/**
 * The import run proper (docs/formats.md): turns a spooled body into sources, reads them through the
 * format's reader inside one write transaction (committed only with `commit=true`), stores the log
 * with a committed import, and writes the answer to a file. It runs wherever `ImportRunner` puts
 * it: in the import worker's thread, or in process. It stops, rolling back, when its control's
 * signal aborts; the HTTP side keeps the record of a committed import that fails.
 */
@Injectable()
export class ImportExecution {
  private readonly logger = new Logger(ImportExecution.name);
  private readonly roots: ImportRoots;
  private readonly limits: ReadLimits;
  /** Where an import writes, for the answer to one that finds no room. */
  private readonly writtenFolders: WrittenFolder[];

  constructor(
    private readonly graph: GraphStore,
    private readonly formats: FormatRegistry,
    private readonly logs: ImportLogService,
    private readonly tokens: TokenStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.roots = ImportRoots.of(config);
    this.limits = { maxDepth: config.import.maxDepth, maxIdLength: config.import.maxIdLength };
    this.writtenFolders = writtenFoldersOf(config);
  }

  /**
   * Runs the task as planned; a failure is thrown after the rollback, explained when the disk was
   * full (the jobs service stores a committed import's failure).
   */
  async run(task: ImportTask, control: RunControl): Promise<ImportTaskResult> {
    try {
      return await this.attempt(task, control);
    } catch (thrown) {
      throw control.signal.aborted
        ? thrown
        : await explainedFailure(thrown, this.writtenFolders, this.logger);
    }
  }

  private async attempt(task: ImportTask, control: RunControl): Promise<ImportTaskResult> {
    const workspace = ImportWorkspace.open(task.workspace, 'run-');
    const ledger = RunLedger.open(workspace.newFile());
    const clock = new PhaseClock(task.receivingMs);
    try {
      // Unpacking an archive or fetching URLs is more of the body arriving.
      const prepared = await clock.measure('receiving', () => this.prepare(task, workspace));
      const tags = prepared.sources.map((source) => source.tag);
      control.signal.throwIfAborted();
      // Checked again just before the commit: this only spares a revoked token's queued import the work.
      if (prepared.params.commit) await this.tokenStillValid(task.tokenId);
      const bytes = new ByteCount(control);
      const sources = prepared.sources.map((source) => bytes.counted(source));
      control.report({
        phase: 'reading',
        sources: { done: 0, total: sources.length },
        tags,
        bytesTotal: sources.every((source) => source.size !== undefined)
          ? sources.reduce((sum, source) => sum + source.size!, 0)
          : undefined,
      });
      const { answer, log } = await this.graph.write(
        (tx) => this.transaction(tx, { ...prepared, sources }, task, { ledger, control, bytes, clock }),
        {
          commit: prepared.params.commit,
          // A cancel that came while the store prepared its commit (its search warm-up) rolls back.
          beforeCommit: async () => {
            control.signal.throwIfAborted();
            await this.tokenStillValid(task.tokenId);
          },
        },
      );
      // The job's timings go on to the commit; the answer's are the stored log's, which end before it.
      const timings = clock.timings();
      await pipeline(
        Readable.from(jsonChunks(answer), { objectMode: false }),
        createWriteStream(task.answerFile),
      );
      const { created_keys: _c, updated_keys: _u, unchanged_keys: _n, ...summary } = log;
      return {
        committed: prepared.params.commit,
        log: { ...summary, errors: { ...summary.errors }, timings },
      };
    } finally {
      ledger.close();
    }
  }

  /** A token revoked while its import ran rolls the import back, whoever revoked it and where. */
  private async tokenStillValid(tokenId: string | undefined): Promise<void> {
    if (tokenId !== undefined && (await this.tokens.inactiveAmong([tokenId])).has(tokenId)) {
      throw new TokenRevokedError(tokenId);
    }
  }

  private async prepare(task: ImportTask, workspace: ImportWorkspace): Promise<Prepared> {
    const { params } = task.plan;
    const reader = this.formats.endpoint(task.plan.reader);
    const settings = this.config.import;
    const sources = await requestSources(reader, {
      ...task.body,
      contentType: task.contentType,
      tag: params.tag,
      workspace,
      roots: this.roots,
      urls: {
        allowPrivate: settings.allowPrivateUrls,
        timeoutMs: settings.urlTimeoutMs,
        maxBytes: settings.maxUrlBytes,
      },
      archives: { maxEntries: settings.maxArchiveEntries, maxBytes: settings.maxArchiveBytes },
    });
    return { reader, params, sources };
  }

  /**
   * The planned scope, as the transaction sees it, which is what the import writes against: read
   * again only when its item changed after the plan was made (a write while the import queued).
   */
  private async currentScope(
    tx: GraphReader,
    reader: FormatReader,
    plan: ImportPlan,
  ): Promise<ImportScope | undefined> {
    const { scope } = plan;
    if (scope === undefined) return undefined;
    const hash = (await tx.getHashes([scope.bundle.id])).get(scope.bundle.id);
    return hash === scope.hash ? scope : loadScope(tx, reader, plan.params.scope);
  }

  private async transaction(
    tx: GraphWriter,
    prepared: Prepared,
    task: ImportTask,
    {
      ledger,
      control,
      bytes,
      clock,
    }: { ledger: RunLedger; control: RunControl; bytes: ByteCount; clock: PhaseClock },
  ): Promise<{ answer: Record<string, unknown>; log: ImportLogDocument<Ids> }> {
    const { reader, params } = prepared;
    const context: ImportContext = {
      params: {
        tolerant: params.tolerant,
        allowUpdate: params.allowUpdate,
        lang: params.lang,
        tag: params.tag,
        useSourceId: params.useSourceId,
        properties: task.properties,
        query: params.query,
        limits: this.limits,
      },
      scope: await this.currentScope(tx, reader, task.plan),
      user: task.user,
      ...(params.commit ? { event: task.logId } : {}),
      store: tx,
      // A reader that waits on a worker of its own stops waiting when the run is cancelled.
      signal: control.signal,
    };
    const changes = new ChangeRecorder(this.config.import.changesMaxBytes);
    let batches = 0;
    let told = 0;
    let latest: Readonly<RunCounts> | undefined;
    const afterBatch = async (counts: Readonly<RunCounts>) => {
      latest = counts;
      control.signal.throwIfAborted();
      const now = Date.now();
      if (batches++ === 0 || now - told >= REPORT_INTERVAL_MS) {
        told = now;
        control.report({ ...counts, phase: 'writing', bytesRead: bytes.read });
      }
      if (batches === 1) await control.firstBatchWritten();
    };
    const run = new ImportRun(
      tx,
      {
        tolerant: params.tolerant,
        allowUpdate: params.allowUpdate || reader.updatesExisting === true,
        useSourceId: params.useSourceId,
        descriptionUpdate: reader.descriptionUpdate ?? 'merge',
        maxIdLength: this.limits.maxIdLength,
        signal: control.signal,
        changes,
        clock,
      },
      ledger,
      afterBatch,
    );
    for (const [index, source] of prepared.sources.entries()) {
      await run.read(reader, [source], context);
      control.report({ sources: { done: index + 1 }, bytesRead: bytes.read });
    }
    // The counts in full: those told after batches may lag behind.
    if (latest !== undefined) control.report({ ...latest });
    control.signal.throwIfAborted();
    const finish: FinishResult = reader.finish
      ? await clock.measure('writing', () => reader.finish!(tx, run.outcome(), context))
      : {};
    control.signal.throwIfAborted();
    control.report({ phase: 'committing' });
    const event = params.commit ? task.logId : null;
    const { log, touched } = run.results(task.message, event, finish.touched);
    // The stored log's timings, and the answer's, end here: before the log is written and committed.
    log.timings = clock.timings();
    const answer = finish.answer?.(log);
    clock.enter('writing');
    if (params.commit) await changes.writeIn(tx, task.logId);
    if (params.commit) {
      await this.logs.writeIn(tx, {
        id: task.logId,
        endpoint: task.endpoint,
        parameters: task.query,
        user: task.user,
        tokenId: task.tokenId,
        requestId: task.requestId,
        scope: params.scope,
        tags: prepared.sources.map((source) => source.tag),
        started: task.started,
        log,
        result: answer,
        ...(changes.isEmpty ? {} : { changes: changes.summary }),
        touched,
        outcome: 'succeeded',
        finished: this.logs.timestamp(),
      });
    }
    // The last chance to stop: past it, the commit is as good as done.
    control.signal.throwIfAborted();
    // What the store does before it commits (paths, its search caches) counts as committing.
    clock.enter('committing');
    if (params.commit) return { answer: answer ?? { ...log }, log };
    // A dry run stores nothing: what its updates would change travels in its answer.
    const { count, truncated } = changes.summary;
    const wouldChange =
      count > 0 || truncated ? { changes: { count, truncated, items: changes.changes() } } : {};
    return { answer: { ...(answer ?? log), ...wouldChange }, log };
  }
}
