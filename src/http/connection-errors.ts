import { HttpStatus, Logger } from '@nestjs/common';
import type { IncomingMessage, Server } from 'node:http';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBodyOf, ImportHttpError } from '../import/import-errors';
import { encodeDocument, errorObject, JSONAPI_MEDIA_TYPE } from '../portal/jsonapi';

/** The request a connection is reading, by connection: what a parse error of its body belongs to. */
const reading = new WeakMap<Socket, IncomingMessage>();

/** Remembers each connection's request, so that a refusal of its body answers in its interface's shape. */
export function trackRequests(server: Server): void {
  server.on('request', (request: IncomingMessage) => reading.set(request.socket, request));
}

/** Not among Nest's named statuses. */
const REQUEST_HEADER_FIELDS_TOO_LARGE = 431;

const REQUEST_LINE = /^[A-Z]+ (\/[^ ?]*)/;
const FIRST_SEGMENT = /^\/([^/?]*)/;

/**
 * The path of the request Node could not parse: from the request line, when the failed bytes
 * start with it (a head too large), or the connection's request still being read (its body's
 * framing is broken).
 */
function pathOf(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): string | undefined {
  const head = error.rawPacket?.subarray(0, 256).toString('latin1');
  const line = head === undefined ? undefined : REQUEST_LINE.exec(head)?.[1];
  if (line !== undefined) return line;
  const request = reading.get(socket);
  return request !== undefined && !request.complete ? request.url : undefined;
}

/** What is wrong, as Node's parser says it. */
function refusalOf(error: NodeJS.ErrnoException & { reason?: string }): { status: number; detail: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: HttpStatus.REQUEST_TIMEOUT, detail: 'The request did not arrive whole in time' };
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: REQUEST_HEADER_FIELDS_TOO_LARGE,
      detail: `The request line and headers are larger than the limit of ${maxHeaderSize} bytes`,
    };
  }
  return {
    status: HttpStatus.BAD_REQUEST,
    detail: `The request is not valid HTTP: ${error.reason ?? error.code ?? 'malformed'}`,
  };
}

/** The answer's type and body in the error shape of the interface the path names. */
function answerOf(status: number, detail: string, path: string | undefined): [string, Buffer] {
  const segment = path === undefined ? undefined : FIRST_SEGMENT.exec(path)?.[1];
  if (segment === 'import') {
    const body = errorBodyOf(new ImportHttpError(status, detail));
    return ['application/json; charset=utf-8', Buffer.from(JSON.stringify(body))];
  }
  if (segment === 'api') {
    return [JSONAPI_MEDIA_TYPE, encodeDocument({ errors: [errorObject(status, detail)] })];
  }
  const body = { statusCode: status, error: STATUS_CODES[status], message: detail };
  return ['application/json; charset=utf-8', Buffer.from(JSON.stringify(body))];
}

const logger = new Logger('HttpConnection');

/** How long a refused connection may stay half-closed for its client to read the answer. */
const CLOSE_AFTER_MS = 2000;

/**
 * Fastify's `clientErrorHandler`: what Node refuses before any route sees the request (a head
 * over Node's limit, 431; broken framing, 400; a request not whole in time, 408), answered in the
 * shape of the interface its path names, as every other error of that interface is; then the
 * connection is closed, which ends whatever was reading the request's body.
 */
export function answerConnectionError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail } = refusalOf(error);
  logger.debug({ err: error, msg: `Refused a request Node could not read: ${detail}` });
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [type, body] = answerOf(status, detail, pathOf(error, socket));
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${type}\r\n` +
    `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  // Ended, then closed once the client closes its side or after a moment: closing at once, with
  // the rest of its request unread, resets the connection, and the client may lose the answer.
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  const closing = setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
  socket.once('close', () => clearTimeout(closing));
}
