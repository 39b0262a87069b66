/**
 * The console's calls to the service's JSON endpoints. The ops token is kept for the tab only
 * (sessionStorage) and travels as a bearer token, never in a URL.
 */
const TOKEN_KEY = 'archival-console-token';

export class Unauthorised extends Error {}

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function keepToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

function headers(token = storedToken()): HeadersInit {
  return { Accept: 'application/json', Authorization: `Bearer ${token ?? ''}` };
}

/** The reason an error answer gives (the import interface's `{status, error, details}`). */
async function reasonOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: string; details?: unknown };
    const details = body.details;
    const text =
      typeof details === 'string'
        ? details
        : details && typeof details === 'object' && 'message' in details
          ? String((details as { message: unknown }).message)
          : '';
    return [body.error, text].filter(Boolean).join(': ') || `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

async function call<T>(method: string, path: string, token?: string): Promise<T> {
  const response = await fetch(path, { method, headers: headers(token) });
  if (response.status === 401 || response.status === 403) throw new Unauthorised(await reasonOf(response));
  if (!response.ok) throw new Error(await reasonOf(response));
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export function getJson<T>(path: string, token?: string): Promise<T> {
  return call<T>('GET', path, token);
}

export function deleteJson<T>(path: string): Promise<T> {
  return call<T>('DELETE', path);
}

/**
 * Follows a Server-Sent Events stream with the bearer token (EventSource cannot send one), handing
 * each event's JSON data to `onData` until the stream ends or `signal` aborts.
 */
export async function followEvents(
  path: string,
  onData: (data: unknown, event: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(path, { headers: { ...headers(), Accept: 'text/event-stream' }, signal });
  if (!response.ok || response.body === null) throw new Error(await reasonOf(response));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) onData(JSON.parse(data.join('\n')) as unknown, event);
    }
  }
}
