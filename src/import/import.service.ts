import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { UsersService } from '../auth/users.service';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { GraphStore } from '../graph/graph-store';
import { outcomeOf } from '../import-jobs/failed-import-log';
import { ImportJob } from '../import-jobs/import-job';
import { ImportJobDocument } from '../import-jobs/import-job.types';
import { ImportJobsService } from '../import-jobs/import-jobs.service';
import { ImportLogService } from '../import-logs/import-log.service';
import { MetricsService } from '../observability/metrics.service';
import { ShutdownService } from '../shutdown/shutdown.service';
import { FormatRegistry } from './format-registry';
import { FormatReader } from './formats/format-reader';
import { badRequest, forbidden, ImportHttpError, ImportWorkerStoppedError } from './import-errors';
import { commitRequested, parseImportParams, RawQuery } from './import-params';
import { loadScope } from './import-scope';
import { explainedFailure, WrittenFolder, writtenFoldersOf } from './storage-full';
import { RunningImports } from './running-imports';
import { ImportRunner } from './running/import-runner';
import { ImportPlan, ImportTask, ImportTaskResult } from './running/import-task';
import { spoolBody } from './sources/body-spool';
import { ImportRoots } from './sources/import-roots';
import { logMessageOf, mappingOf } from './sources/parameter-files';
import { UrlLimits } from './sources/url-fetch';
import { ImportWorkspace } from './sources/workspace';

/** The body's length as `Content-Length` announces it; 0 when it does not (a chunked body). */
function announcedLength(body: IncomingMessage): number {
  const header = body.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : 0;
}

/** One `POST /import/<endpoint>` (or a command line's import) as it is handed over. */
export interface ImportRequest {
  endpoint: string;
  /** The `X-User` header. */
  user?: string;
  query: RawQuery;
  contentType?: string;
  body: IncomingMessage;
  /**
   * The token of the request, which may then see its job (`GET /import/jobs`) and is recorded in
   * its log and job; none for a command line's import.
   */
  tokenId?: string;
  /** The user that token was issued to, if any: the acting user (`actingUser`). */
  tokenUser?: string;
  /** The request's id (`X-Request-Id`), kept in the stored log. */
  requestId?: string;
}

/** How the import's answer leaves: at once as its job (`respond-async`), or when it is done. */
export interface ImportAnswer {
  /** Told the import's job once it exists (to show its progress). */
  started?(job: ImportJob): void;
  /** Set to answer with the job as soon as the body is in; the import goes on. */
  accepted?(job: ImportJobDocument): Promise<void>;
  /** The answer of the finished import, written as JSON in `file`. Not called once `accepted` was. */
  done(file: string): Promise<void>;
}

/**
 * The HTTP side of every import (README, "Importing"): checks the request, takes its body in, and hands
 * the import to `ImportRunner` as a job (`ImportJobsService`), one at a time; then sends the answer
 * the run wrote, or, asked to answer asynchronously, only the job. The jobs service ends a job that
 * fails, and stores the log of a committed one as failed.
 */
@Injectable()
export class ImportService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ImportService.name);
  private readonly roots: ImportRoots;
  private readonly urls: UrlLimits;
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
    private readonly jobs: ImportJobsService,
    private readonly runner: ImportRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    shutdown: ShutdownService,
  ) {
    this.metrics.gauge('import_jobs_running', 'Imports running in this process', () => this.running.size);
    shutdown.onDrain(async (graceMs) => {
      const { cancelled, stoppedMs } = await this.running.drain(graceMs, () => this.runner.close());
      if (cancelled > 0)
        this.logger.warn({ msg: 'Cancelled imports still running after the grace period', cancelled });
      // How long rolling back took once the worker was stopped under an import that had not stopped.
      if (stoppedMs !== undefined)
        this.logger.warn({ msg: 'Stopped the import worker', rollbackMs: stoppedMs });
    });
    const settings = config.import;
    this.roots = ImportRoots.of(config);
    this.writtenFolders = writtenFoldersOf(config);
    this.urls = {
      allowPrivate: settings.allowPrivateUrls,
      timeoutMs: settings.urlTimeoutMs,
      maxBytes: settings.maxUrlBytes,
    };
  }

  /** Once the app's logger is in place: a constructor's line would go to Nest's default one. */
  onApplicationBootstrap(): void {
    const overlaps = this.roots.overlaps();
    if (overlaps.length > 0) {
      this.logger.warn(
        `IMPORT_ROOTS overlaps the service's own folders, whose files are never read: ${overlaps.join('; ')}`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.close();
  }

  /** Runs the import as a job; shutting down lets it finish, or cancels it after the grace period. */
  import(request: ImportRequest, answer: ImportAnswer): Promise<void> {
    return this.running.track((signal) => this.importUnlessInterrupted(request, answer, signal));
  }

  private async importUnlessInterrupted(
    request: ImportRequest,
    answer: ImportAnswer,
    interrupt: AbortSignal,
  ): Promise<void> {
    const started = this.logs.timestamp();
    const endpoint = this.formats.endpoint(request.endpoint);
    const user = await this.actingUser(request);
    // Before anything of the body is read: a full queue takes nothing in.
    const place = await this.jobs.admit(user, announcedLength(request.body));
    const workspace = await ImportWorkspace.create(this.config.import.tempDir).catch(async (error) => {
      place.release();
      throw (await explainedFailure(error, this.writtenFolders, this.logger)) as Error;
    });
    const task: Partial<ImportTask> & Pick<ImportTask, 'logId' | 'started'> = {
      logId: this.logs.newId(),
      started,
    };
    const attempt = {
      endpoint: endpoint.name,
      user,
      tokenId: request.tokenId,
      query: request.query,
      requestId: request.requestId,
    };
    let job: ImportJob | undefined;
    let accepted = false;
    /** The tags of the body's sources, as the run found them. */
    let sourceTags: string[] = [];
    const clock = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - clock) / 1e9;
    // A body still arriving when the import is interrupted is not waited for.
    const stopReading = () => request.body.readableEnded || request.body.destroy(interrupt.reason as Error);
    interrupt.addEventListener('abort', stopReading);
    try {
      const plan = await this.plan(endpoint, request.query);
      const { params } = plan;
      const message = await logMessageOf(params.log, this.roots);
      const properties = await mappingOf(params.properties, this.roots, this.urls);
      job = this.jobs.create(
        {
          endpoint: endpoint.name,
          user,
          scope: params.scope,
          parameters: request.query,
          commit: params.commit,
          tokenId: request.tokenId,
        },
        place,
      );
      answer.started?.(job);
      const file = path.join(workspace.folder, 'body');
      const spooling = seconds();
      const body = await spoolBody(request.body, file, this.config.import.maxBodyBytes, place.grow);
      const receivingMs = (seconds() - spooling) * 1000;
      if (body.size === 0) throw badRequest('The request body is empty');
      job.report({ bytesTotal: body.size });
      job.waiting();
      Object.assign(task, {
        ...attempt,
        plan,
        contentType: request.contentType,
        body: { file, ...body },
        workspace: workspace.folder,
        answerFile: path.join(workspace.folder, 'answer.json'),
        receivingMs,
        message,
        properties,
        jobId: job.id,
      });
      if (answer.accepted !== undefined) {
        await answer.accepted(job.document());
        accepted = true;
      }
      const running = job;
      const result = await this.jobs.run(running, () =>
        this.runner.run(task as ImportTask, {
          signal: AbortSignal.any([running.signal, interrupt]),
          report: (report) => {
            if (report.tags !== undefined) sourceTags = report.tags;
            running.report(report);
          },
          firstBatchWritten: async () => undefined,
        }),
      );
      await this.succeeded(running, task.logId, result, seconds());
      if (!accepted) await answer.done(task.answerFile!);
    } catch (thrown) {
      if (
        job !== undefined &&
        thrown instanceof ImportWorkerStoppedError &&
        (await this.committedAnyway(job, task.logId))
      ) {
        throw new ImportHttpError(
          HttpStatus.SERVICE_UNAVAILABLE,
          `The service is shutting down: the import committed (log ${task.logId}), but its answer was lost with its worker`,
        );
      }
      // Whatever interrupting made fail (a body cut off, a reader stopped) failed for that reason.
      const error: unknown = interrupt.aborted
        ? interrupt.reason
        : await explainedFailure(thrown, this.writtenFolders, this.logger);
      const committed = commitRequested(request.query);
      this.metrics.recordImport(endpoint.name, outcomeOf(error), committed, seconds());
      // The job ends, and a committed import's log is stored as failed, by the jobs service.
      const failed = committed ? { ...attempt, ...task, tags: sourceTags } : undefined;
      // Its place in the queue is free at once, before its log and end are stored.
      place.release();
      const stored = this.jobs.fail(job, error, failed);
      // Refused while another import writes (an unknown scope, say): answered now, not once that
      // import ends; its job and log are stored then, and shutting down waits for them.
      if (this.jobs.importWriting()) this.running.settleLater(stored);
      else await stored;
      // Accepted, the job tells the error; the answer has gone.
      if (!accepted) throw error;
    } finally {
      place.release();
      interrupt.removeEventListener('abort', stopReading);
      await workspace.dispose();
    }
  }

  /** The import's plan, made once: its parameters, its reader, and its scope as the store holds it. */
  private async plan(endpoint: FormatReader, query: RawQuery): Promise<ImportPlan> {
    const params = parseImportParams(query);
    const reader = this.formats.select(endpoint, params);
    const scope = await this.graph.read((tx) => loadScope(tx, reader, params.scope));
    return { reader: reader.name, params, scope };
  }

  private async succeeded(job: ImportJob, logId: string, result: ImportTaskResult, seconds: number) {
    const { log } = result;
    this.metrics.recordImport(job.spec.endpoint, 'succeeded', result.committed, seconds, {
      created: log.created,
      updated: log.updated,
      unchanged: log.unchanged,
    });
    job.report({ created: log.created, updated: log.updated, unchanged: log.unchanged });
    await this.jobs.finish(job, {
      state: result.committed ? 'committed' : 'rolled-back',
      log,
      event: result.committed ? logId : null,
    });
  }

  /**
   * Whether an import whose worker was stopped under it (a shutdown's) had committed all the same:
   * the worker's last step, SQLite's commit, cannot be cut. If so its job ends committed.
   */
  private async committedAnyway(job: ImportJob, logId: string): Promise<boolean> {
    const stored = await this.logs.get(logId).catch(() => undefined);
    if (stored?.outcome !== 'succeeded' || stored.log === undefined) return false;
    const { created_keys: _created, updated_keys: _updated, unchanged_keys: _unchanged, ...log } = stored.log;
    await this.jobs.finish(job, { state: 'committed', log, event: logId });
    return true;
  }

  /**
   * Who the import is recorded as: a token issued to a user acts as that user only (`X-User` may
   * be left out, or must name the same user); a token issued to no user, or the command line,
   * names a known user in `X-User`. The log and job also record the token itself.
   */
  private async actingUser(request: ImportRequest): Promise<string> {
    const named = request.user?.trim() === '' ? undefined : request.user;
    const { tokenId, tokenUser } = request;
    if (tokenId !== undefined && tokenUser !== undefined) {
      if (named !== undefined && named !== tokenUser) {
        throw forbidden(
          `X-User "${named}" is not the user this import token (id ${tokenId}) was issued to, "${tokenUser}"`,
        );
      }
      return tokenUser;
    }
    if (named === undefined) {
      throw badRequest(
        tokenId === undefined
          ? 'The X-User header must name the acting user'
          : `The X-User header must name the acting user: this import token (id ${tokenId}) was issued to no user`,
      );
    }
    if (!(await this.users.exists(named))) throw badRequest(`Unknown user: ${named}`);
    return named;
  }
}
