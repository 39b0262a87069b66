import type { Server } from 'node:http';
import request from 'supertest';

/** A CORS preflight for a GET of `path` from another origin, as a browser sends it. */
export function preflight(server: Server, path: string): request.Test {
  return request(server)
    .options(path)
    .set('Origin', 'https://viewer.example')
    .set('Access-Control-Request-Method', 'GET');
}
