import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { UsersService } from '../auth/users.service';
import { ShutdownService } from '../shutdown/shutdown.service';
import { APP_CONFIG, AppConfig, sqliteFileOf } from '../config/app-config';
import { GraphStore, GraphWriter } from '../graph/graph-store';
import { ChangeRecorder } from '../import-logs/change-records';
import { ImportLogService } from '../import-logs/import-log.service';
import { ImportLogDocument, ImportLogRecord, ImportOutcomeName } from '../import-logs/import-log.types';
import { Ids } from '../import-logs/walked-ids';
import { MetricsService } from '../observability/metrics.service';
import { FinishResult, FormatReader, ImportContext, ImportSource, ReadLimits } from './formats/format-reader';
import { badRequest, errorBodyOf, ImportInterruptedError } from './import-errors';
import { commitRequested, ImportRequestParams, parseImportParams, RawQuery } from './import-params';
import { ImportRun } from './import-run';
import { RunLedger } from './run-ledger';
import { RunningImports } from './running-imports';
import { loadScope } from './import-scope';
import { FormatRegistry } from './format-registry';
import { spoolBody } from './sources/body-spool';
import { ImportRoots } from './sources/import-roots';
import { logMessageOf, mappingOf } from './sources/parameter-files';
import { requestSources } from './sources/request-sources';
import { UrlLimits } from './sources/url-fetch';
import { ImportWorkspace } from './sources/workspace';
import { insufficientStorage, storeNotWritable, WrittenFolder } from './storage-full';

/** One `POST /import/<endpoint>` as the controller hands it over. */
export interface ImportRequest {
  endpoint: string;
  /** The `X-User` header. */
  user?: string;
  query: RawQuery;
  contentType?: string;
  body: IncomingMessage;
  /** The request's id (`X-Request-Id`), kept in the stored log. */
  requestId?: string;
}

/** The stored log's fields known from the start, completed when the import ends. */
type Attempt = Pick<
  ImportLogRecord,
  'id' | 'endpoint' | 'parameters' | 'user' | 'scope' | 'requestId' | 'tags' | 'started'
>;

/** What one import runs with, and the signal that cancels it. */
interface RunResources {
  workspace: ImportWorkspace;
  ledger: RunLedger;
  signal: AbortSignal;
}

/** Everything the transaction needs, prepared before it starts so the writer is held briefly. */
interface Prepared {
  reader: FormatReader;
  params: ImportRequestParams;
  sources: ImportSource[];
  message: string | null;
  properties?: string;
}

/**
 * The import run shared by every format (DESIGN.md §4): validates the request, turns the body
 * into sources, reads them through the format's reader inside one write transaction (committed
 * only with `commit=true`), and stores the import log — with the import when it commits, on its
 * own when a committed import fails.
 */
@Injectable()
export class ImportService {
  private readonly logger = new Logger(ImportService.name);
  private readonly roots: ImportRoots;
  private readonly urls: UrlLimits;
  private readonly limits: ReadLimits;
  /** Where an import writes, for the answer to one that finds no room. */
  private readonly writtenFolders: WrittenFolder[];
  /** What shutting down waits for, then cancels (`drain`). */
  private readonly running = new RunningImports();

  constructor(
    private readonly graph: GraphStore,
    private readonly formats: FormatRegistry,
    private readonly users: UsersService,
    private readonly logs: ImportLogService,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    shutdown: ShutdownService,
  ) {
    this.metrics.gauge('import_jobs_running', 'Imports running in this process', () => this.running.size);
    shutdown.onDrain(async (graceMs) => {
      const cancelled = await this.running.drain(graceMs);
      if (cancelled > 0)
        this.logger.warn({ msg: 'Cancelled imports still running after the grace period', cancelled });
    });
    const settings = config.import;
    this.roots = new ImportRoots(settings.roots);
    this.urls = {
      allowPrivate: settings.allowPrivateUrls,
      timeoutMs: settings.urlTimeoutMs,
      maxBytes: settings.maxUrlBytes,
    };
    this.limits = { maxDepth: settings.maxDepth, maxIdLength: settings.maxIdLength };
    const storeFile = sqliteFileOf(config.graphUrl);
    this.writtenFolders = [
      { name: 'temporary folder', setting: 'IMPORT_TEMP_DIR', folder: settings.tempDir },
    ];
    if (storeFile !== undefined) {
      const folder = path.dirname(path.resolve(storeFile));
      this.writtenFolders.push({ name: "store's folder", setting: 'GRAPH_URL', folder });
    }
  }

  /**
   * Runs the import and hands its answer (the import log, or the format's shape of it) to
   * `deliver`, which sends it. The answer's id lists are read from the run's ledger as they are
   * sent (`WalkedIds`): the ledger is thrown away with the import's workspace once `deliver` is
   * done.
   */
  import(request: ImportRequest, deliver: (answer: Record<string, unknown>) => Promise<void>): Promise<void> {
    return this.running.track((signal) => this.importUnlessCancelled(request, deliver, signal));
  }

  /** Imports running in this process. */
  get runningCount(): number {
    return this.running.size;
  }

  private async importUnlessCancelled(
    request: ImportRequest,
    deliver: (answer: Record<string, unknown>) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    const started = this.logs.timestamp();
    const endpoint = this.formats.endpoint(request.endpoint);
    const user = await this.actingUser(request.user);
    const scope = request.query.scope;
    const attempt: Attempt = {
      id: this.logs.newId(),
      endpoint: endpoint.name,
      parameters: request.query,
      user,
      scope: typeof scope === 'string' ? scope : undefined,
      requestId: request.requestId,
      tags: [],
      started,
    };
    const workspace = await ImportWorkspace.create(this.config.import.tempDir).catch(async (error) => {
      throw (await this.explained(error)) as Error;
    });
    let ledger: RunLedger | undefined;
    try {
      ledger = RunLedger.open(workspace.newFile());
      await deliver(await this.attempt(endpoint, request, attempt, { workspace, ledger, signal }));
    } finally {
      ledger?.close();
      await workspace.dispose();
    }
  }

  /** Prepares and runs the import, and keeps the record of a committed one that fails. */
  private async attempt(
    endpoint: FormatReader,
    request: ImportRequest,
    attempt: Attempt,
    { workspace, ledger, signal }: RunResources,
  ): Promise<Record<string, unknown>> {
    const clock = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - clock) / 1e9;
    const committed = commitRequested(request.query);
    // A body still arriving when the import is cancelled is not waited for.
    const stopReading = () => request.body.readableEnded || request.body.destroy(signal.reason as Error);
    signal.addEventListener('abort', stopReading);
    try {
      const prepared = await this.prepare(endpoint, request, workspace);
      attempt.tags = prepared.sources.map((source) => source.tag);
      signal.throwIfAborted();
      const { answer, log } = await this.graph.write(
        (tx) => this.run(tx, prepared, attempt, ledger, signal),
        { commit: prepared.params.commit },
      );
      this.metrics.recordImport(endpoint.name, 'succeeded', committed, seconds(), {
        created: log.created,
        updated: log.updated,
        unchanged: log.unchanged,
      });
      return answer;
    } catch (thrown) {
      // Whatever cancelling made fail (a body cut off, a reader stopped) failed for that reason.
      const error: unknown = signal.aborted ? signal.reason : await this.explained(thrown);
      const outcome = error instanceof ImportInterruptedError ? 'interrupted' : 'failed';
      this.metrics.recordImport(endpoint.name, outcome, committed, seconds());
      if (committed) await this.recordFailure(attempt, outcome, error);
      throw error;
    } finally {
      signal.removeEventListener('abort', stopReading);
    }
  }

  /**
   * A failure as the client is told it: a write that found no room is the service's 507, a store
   * that cannot be written its 503.
   */
  private async explained(error: unknown): Promise<unknown> {
    const refusal = (await insufficientStorage(error, this.writtenFolders)) ?? storeNotWritable(error);
    if (refusal === undefined) return error;
    this.logger.error({ err: error, msg: `An import could not write: ${refusal.message}` });
    return refusal;
  }

  private async actingUser(user: string | undefined): Promise<string> {
    if (user === undefined || user.trim() === '') {
      throw badRequest('The X-User header must name the acting user');
    }
    if (!(await this.users.exists(user))) throw badRequest(`Unknown user: ${user}`);
    return user;
  }

  /** Every check that needs no transaction, then the body: cheap refusals come first. */
  private async prepare(
    endpoint: FormatReader,
    request: ImportRequest,
    workspace: ImportWorkspace,
  ): Promise<Prepared> {
    const params = parseImportParams(request.query);
    const reader = this.formats.select(endpoint, params);
    await this.graph.read((tx) => loadScope(tx, reader, params.scope));
    const message = await logMessageOf(params.log, this.roots);
    const properties = await mappingOf(params.properties, this.roots, this.urls);
    const file = workspace.newFile();
    const { size } = await spoolBody(request.body, file, this.config.import.maxBodyBytes);
    if (size === 0) throw badRequest('The request body is empty');
    const sources = await requestSources(reader, {
      file,
      size,
      contentType: request.contentType,
      tag: params.tag,
      workspace,
      roots: this.roots,
      urls: this.urls,
      archives: {
        maxEntries: this.config.import.maxArchiveEntries,
        maxBytes: this.config.import.maxArchiveBytes,
      },
    });
    return { reader, params, sources, message, properties };
  }

  private async run(
    tx: GraphWriter,
    prepared: Prepared,
    attempt: Attempt,
    ledger: RunLedger,
    signal: AbortSignal,
  ): Promise<{ answer: Record<string, unknown>; log: ImportLogDocument<Ids> }> {
    const { commit } = prepared.params;
    const changes = new ChangeRecorder(this.config.import.changesMaxBytes);
    const { log, touched, finish } = await this.readAll(tx, prepared, attempt, ledger, signal, changes);
    signal.throwIfAborted();
    const answer = finish.answer?.(log);
    if (commit) {
      await changes.writeIn(tx, attempt.id);
      await this.logs.writeIn(tx, {
        ...attempt,
        log,
        result: answer,
        ...(changes.isEmpty ? {} : { changes: changes.summary }),
        touched,
        outcome: 'succeeded',
        finished: this.logs.timestamp(),
      });
      return { answer: answer ?? { ...log }, log };
    }
    // A dry run stores nothing: what its updates would change travels in its answer.
    const { count, truncated } = changes.summary;
    const wouldChange =
      count > 0 || truncated ? { changes: { count, truncated, items: changes.changes() } } : {};
    return { answer: { ...(answer ?? log), ...wouldChange }, log };
  }

  /** Reads the sources and runs the reader's finish step. */
  private async readAll(
    tx: GraphWriter,
    prepared: Prepared,
    attempt: Attempt,
    ledger: RunLedger,
    signal: AbortSignal,
    changes: ChangeRecorder,
  ): Promise<{ log: ImportLogDocument<Ids>; touched: Ids; finish: FinishResult }> {
    const { reader, params } = prepared;
    const event = params.commit ? attempt.id : null;
    const context: ImportContext = {
      params: {
        tolerant: params.tolerant,
        allowUpdate: params.allowUpdate,
        lang: params.lang,
        tag: params.tag,
        useSourceId: params.useSourceId,
        properties: prepared.properties,
        query: params.query,
        limits: this.limits,
      },
      // Read again inside the transaction, which is what the import writes against.
      scope: await loadScope(tx, reader, params.scope),
      user: attempt.user,
      ...(event === null ? {} : { event }),
      store: tx,
      signal,
    };
    const run = new ImportRun(
      tx,
      {
        tolerant: params.tolerant,
        allowUpdate: params.allowUpdate || reader.updatesExisting === true,
        useSourceId: params.useSourceId,
        descriptionUpdate: reader.descriptionUpdate ?? 'merge',
        maxIdLength: this.limits.maxIdLength,
        signal,
        changes,
      },
      ledger,
    );
    await run.read(reader, prepared.sources, context);
    signal.throwIfAborted();
    const finish: FinishResult = reader.finish ? await reader.finish(tx, run.outcome(), context) : {};
    const { log, touched } = run.results(prepared.message, event, finish.touched);
    return { log, touched, finish };
  }

  /** Keeps the record of a failed committed import; never hides the import's own error. */
  private async recordFailure(
    attempt: Attempt,
    outcome: Exclude<ImportOutcomeName, 'succeeded'>,
    error: unknown,
  ): Promise<void> {
    try {
      await this.logs.write({
        ...attempt,
        touched: [],
        outcome,
        error: errorBodyOf(error),
        finished: this.logs.timestamp(),
      });
    } catch (logError) {
      this.logger.error(`Could not store the log of failed import ${attempt.id}: ${String(logError)}`);
    }
  }
}
