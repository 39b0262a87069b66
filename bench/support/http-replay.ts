/**
 * A load generator for benchmarks, run as a child process (`fork`) so that its work neither
 * queues behind the server's on one event loop nor counts in the server's CPU time. It receives
 * a `ReplayJob`, replays its paths from `clients` keep-alive connections (each client sends its
 * next request when the previous one is answered) and sends back a `ReplayResult`.
 *
 * Each client is a bare socket that writes a prepared request and reads the answer by its
 * `Content-Length`, as wrk does, rather than Node's HTTP client: on a machine the server shares,
 * every microsecond the harness spends per request is one the server does not get, and Node's
 * client (with a JSON parse of each body) cost more per request than a bare server does.
 */
import { fork } from 'node:child_process';
import net from 'node:net';

export interface ReplayJob {
  port: number;
  headers: Record<string, string>;
  paths: string[];
  clients: number;
  /**
   * Asked once by each client before the replay starts, untimed: the measured requests then travel
   * on connections already open and, under Node's cluster, already handed to a serving process
   * (the primary hands them out one at a time per process, each behind the requests it is busy
   * with, so 50 connections opened at once wait up to several hundred ms for their first answer).
   */
  openingPath?: string;
}

export interface ReplayResult {
  /** Each request's latency, in the order of `paths`. */
  latenciesMs: number[];
  /** `meta.total` of each answer that has one. */
  totals: number[];
  errors: number;
  wallMs: number;
  /** How long the clients' opening requests took, all together; 0 without `openingPath`. */
  openingMs: number;
}

interface Answer {
  status: number;
  total?: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
/** In JSON a quote within a string is escaped, so this stands only as a key. */
const TOTAL_KEY = Buffer.from('"total":');

/** The number after the last `"total":` of a JSON body, if any (the document's `meta.total`). */
export function lastTotal(body: Buffer): number | undefined {
  const at = body.lastIndexOf(TOTAL_KEY);
  if (at === -1) return undefined;
  let value = 0;
  let index = at + TOTAL_KEY.length;
  const start = index;
  for (; index < body.length && body[index] >= 0x30 && body[index] <= 0x39; index++) {
    value = value * 10 + body[index] - 0x30;
  }
  return index === start ? undefined : value;
}

/** The bytes of a GET request for `path` with `headers`, on a keep-alive connection. */
export function requestBytes(path: string, port: number, headers: Record<string, string>): Buffer {
  const lines = [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/**
 * Reads answers from bytes as they arrive: one at a time, each with a `Content-Length` (the
 * servers measured send it; an answer without it is an error).
 */
export class AnswerReader {
  private chunks: Buffer[] = [];
  private received = 0;
  /** The length of the head and the whole answer, once the head is read. */
  private head?: { status: number; length: number; total: number };

  /** Takes `chunk`; returns the answer it completes, if it does. Throws on a malformed answer. */
  take(chunk: Buffer): Answer | undefined {
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (this.head === undefined) {
      const bytes = this.bytes();
      const end = bytes.indexOf(HEADER_END);
      if (end === -1) return undefined;
      const head = bytes.toString('latin1', 0, end);
      const length = CONTENT_LENGTH.exec(head);
      if (!head.startsWith('HTTP/1.1 ') || length === null) throw new Error(`Unusable answer: ${head}`);
      const headLength = end + HEADER_END.length;
      this.head = {
        status: Number(head.slice(9, 12)),
        length: headLength,
        total: headLength + Number(length[1]),
      };
    }
    if (this.received < this.head.total) return undefined;
    if (this.received > this.head.total) throw new Error('Bytes beyond the answer: none were asked for');
    const answer = { status: this.head.status, total: lastTotal(this.bytes().subarray(this.head.length)) };
    this.chunks = [];
    this.received = 0;
    this.head = undefined;
    return answer;
  }

  private bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0];
  }
}

/** One keep-alive connection, one request at a time; after a failure, a new connection. */
class Client {
  private socket?: net.Socket;
  private reader = new AnswerReader();
  private waiting?: { resolve: (answer: Answer) => void; reject: (error: Error) => void };

  constructor(private readonly port: number) {}

  get(request: Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      (this.socket ??= this.connect()).write(request);
    });
  }

  close(): void {
    this.socket?.destroy();
  }

  private connect(): net.Socket {
    const socket = net.connect(this.port, '127.0.0.1');
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      let answer: Answer | undefined;
      try {
        answer = this.reader.take(chunk);
      } catch (error) {
        return this.fail(error as Error);
      }
      if (answer === undefined) return;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.resolve(answer);
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('The server closed the connection')));
    return socket;
  }

  private fail(error: Error): void {
    this.socket?.destroy();
    this.socket = undefined;
    this.reader = new AnswerReader();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}

/** Replays `job` in this process; benchmarks use `replayInChild`. */
export async function replay(job: ReplayJob): Promise<ReplayResult> {
  const requests = job.paths.map((path) => requestBytes(path, job.port, job.headers));
  const result: ReplayResult = { latenciesMs: [], totals: [], errors: 0, wallMs: 0, openingMs: 0 };
  const clients = Array.from({ length: job.clients }, () => new Client(job.port));
  if (job.openingPath !== undefined) {
    const opening = requestBytes(job.openingPath, job.port, job.headers);
    const started = Date.now();
    const answers = await Promise.all(clients.map((client) => client.get(opening)));
    result.openingMs = Date.now() - started;
    const failed = answers.find((answer) => answer.status !== 200);
    if (failed) throw new Error(`The opening request ${job.openingPath} answered ${failed.status}`);
  }
  let next = 0;
  const run = async (client: Client) => {
    while (next < requests.length) {
      const index = next++;
      const started = process.hrtime.bigint();
      const answer = await client.get(requests[index]).catch((): Answer => ({ status: 0 }));
      result.latenciesMs[index] = Number(process.hrtime.bigint() - started) / 1e6;
      if (answer.status !== 200) result.errors++;
      if (answer.total !== undefined) result.totals.push(answer.total);
    }
    client.close();
  };
  const started = Date.now();
  await Promise.all(clients.map(run));
  result.wallMs = Date.now() - started;
  return result;
}

/** Runs `job` in a child process and resolves with its result. */
export function replayInChild(job: ReplayJob): Promise<ReplayResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (result) => resolve(result as ReplayResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`replay child exited with ${code}`));
    });
    child.send(job);
  });
}

if (require.main === module) {
  process.once('message', (job) => {
    void replay(job as ReplayJob).then((result) => process.send?.(result, () => process.exit(0)));
  });
}
