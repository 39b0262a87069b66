import request from 'supertest';

/** One Server-Sent Event: its name and its data, parsed. */
export interface ServerSentEvent {
  event: string;
  data: Record<string, unknown>;
}

/** The events of a whole `text/event-stream` body. */
export function parseEvents(text: string): ServerSentEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields = Object.fromEntries(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
      );
      return { event: fields.event, data: JSON.parse(fields.data) as Record<string, unknown> };
    });
}

/** Reads a job's event stream to its end (the outcome), with its status and headers. */
export async function jobEvents(
  server: Parameters<typeof request>[0],
  id: string,
  token: string,
): Promise<{ status: number; contentType: string; events: ServerSentEvent[] }> {
  const response = await request(server)
    .get(`/import/jobs/${id}/events`)
    .set('Authorization', `Bearer ${token}`)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
  return {
    status: response.status,
    contentType: String(response.headers['content-type']),
    events: response.status === 200 ? parseEvents(response.body as string) : [],
  };
}

/** An EAD finding aid of one fonds with `units` files below it. */
export function eadOf(fonds: string, units: number): string {
  const files = Array.from(
    { length: units },
    (_, index) =>
      `<c01 level="file"><did><unitid>${fonds}-${index}</unitid>` +
      `<unittitle>File ${index} of ${fonds}</unittitle></did>` +
      `<scopecontent><p>Correspondence and minutes, number ${index}.</p></scopecontent></c01>`,
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?><ead><eadheader><eadid>${fonds}</eadid></eadheader>` +
    `<archdesc level="fonds"><did><unitid>${fonds}</unitid><unittitle>Fonds ${fonds}</unittitle></did>` +
    `<dsc>${files.join('')}</dsc></archdesc></ead>`
  );
}
