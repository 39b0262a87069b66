import { once } from 'node:events';
import { connect } from 'node:net';

/** An answer read off a raw connection. */
export interface RawAnswer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `bytes` to a new connection and reads everything the server sends until it closes it:
 * for requests no HTTP client would send (broken framing, heads over the limit).
 */
export async function rawExchange(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(bytes);
  await once(socket, 'close');
  const headEnd = text.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = text.slice(0, headEnd).split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(headEnd + 4) };
}
