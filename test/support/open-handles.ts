import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { until } from './polling';

/**
 * Handles an import could leave open, named: the files it opened in its folder and the
 * connections of its requests. Counting all of the process's descriptors cannot tell these from
 * what else the test process holds: Jest runs every test file in one process on a machine of two
 * cores, and what earlier files left opens and closes meanwhile, as do the store's pooled
 * connections, opened on demand (Linux: /proc).
 */

/** Each open descriptor of this process and what it points at (`socket:[inode]`, a path). */
function descriptors(): string[] {
  const targets: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      targets.push(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // Closed since the folder was listed.
    }
  }
  return targets;
}

/** The files this process holds open in `folder`, deleted ones too (`… (deleted)`). */
export function openFilesIn(folder: string): string[] {
  return descriptors().filter((target) => target.startsWith(`${folder}/`));
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

/**
 * The TCP connections to or from `port` that this process holds open, either end, as
 * `local -> remote STATE`; the listening socket is not one.
 */
export function openConnectionsOn(port: number): string[] {
  const inodes = new Set(
    descriptors()
      .map((target) => /^socket:\[(\d+)\]$/.exec(target)?.[1])
      .filter((inode) => inode !== undefined),
  );
  const connections: string[] = [];
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    let rows: string[];
    try {
      rows = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const row of rows) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
      const [, local, remote, state, , , , , , inode] = row.trim().split(/\s+/);
      if (!inodes.has(inode) || state === '0A') continue;
      const ports = [local, remote].map((address) => parseInt(address.split(':')[1], 16));
      if (!ports.includes(port)) continue;
      connections.push(`${local} -> ${remote} ${TCP_STATES[state] ?? state}`);
    }
  }
  return connections;
}

/**
 * Waits until imports have left nothing behind: no workspace in their temporary folder `tempDir`,
 * no file open there, no connection to or from the service's `port`; fails naming what is left.
 */
export async function untilImportsLeftNothing(tempDir: string, port: number): Promise<void> {
  await until(
    'workspaces left in the temporary folder',
    () => readdir(tempDir),
    (names) => names.length === 0,
  );
  await until(
    'files left open in the temporary folder, connections left open',
    () => [...openFilesIn(tempDir), ...openConnectionsOn(port)],
    (left) => left.length === 0,
  );
}
