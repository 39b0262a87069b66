import { boltUrl, logFile, runningServer, settingsFromEnv, startServer, stopServer } from './neo4j-server';

/**
 * `npm run neo4j:start` / `neo4j:stop` / `neo4j:status`: a Neo4j Community server for development
 * on 127.0.0.1, with its data in `NEO4J_DATA_DIR` (default ./data/neo4j), Bolt on
 * `NEO4J_BOLT_PORT` (default 7687) and the user `neo4j` with `NEO4J_PASSWORD`.
 */
async function main(command: string | undefined): Promise<void> {
  const settings = settingsFromEnv();
  const running = runningServer(settings.dataDir);
  switch (command) {
    case 'start': {
      if (running) {
        console.log(`Neo4j is already running (pid ${running.pid}) at ${boltUrl(running.port)}`);
        return;
      }
      const { url } = await startServer(settings);
      console.log(`Neo4j is running at ${url} (user neo4j; data and log in ${settings.dataDir})`);
      console.log(url);
      return;
    }
    case 'stop':
      console.log(
        (await stopServer(settings.dataDir))
          ? `Neo4j stopped (${settings.dataDir})`
          : `Neo4j is not running (${settings.dataDir})`,
      );
      return;
    case 'status':
      console.log(
        running
          ? `Neo4j is running (pid ${running.pid}) at ${boltUrl(running.port)}; log: ${logFile(settings.dataDir)}`
          : `Neo4j is not running (${settings.dataDir})`,
      );
      return;
    default:
      throw new Error(`Usage: scripts/neo4j.ts start|stop|status, got "${command ?? ''}"`);
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
