import { once } from 'node:events';
import { mkdtempSync, openSync, closeSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, connect, Socket, AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openConnectionsOn, openFilesIn } from './open-handles';

describe('Open handles of a folder and a port', () => {
  it('names the files open in a folder, deleted ones too, until they are closed', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'open-handles-'));
    try {
      const kept = path.join(folder, 'kept');
      const deleted = path.join(folder, 'deleted');
      const fds = [openSync(kept, 'w'), openSync(deleted, 'w')];
      unlinkSync(deleted);
      expect(openFilesIn(folder).sort()).toEqual([`${deleted} (deleted)`, kept]);
      expect(openFilesIn(`${folder}-other`)).toEqual([]);
      fds.forEach((fd) => closeSync(fd));
      expect(openFilesIn(folder)).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('names both ends of a connection to a port, not its listening socket, until they close', async () => {
    const accepted: Socket[] = [];
    const server = createServer((socket) => accepted.push(socket)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      expect(openConnectionsOn(port)).toEqual([]);
      const client = connect(port, '127.0.0.1');
      await once(client, 'connect');
      while (accepted.length === 0) await new Promise((resolve) => setImmediate(resolve));
      const open = openConnectionsOn(port);
      expect(open).toHaveLength(2);
      expect(open.every((connection) => connection.endsWith(' ESTABLISHED'))).toBe(true);
      client.destroy();
      accepted[0].destroy();
      await Promise.all([once(client, 'close'), once(accepted[0], 'close')]);
      expect(openConnectionsOn(port)).toEqual([]);
    } finally {
      server.close();
    }
  });
});
