/**
 * Imported first by the service's and the command line's entry points: on a Node older than 22
 * the SQLite binding crashes the process on opening a store, so a run outside npm (where the
 * project's own Node 24 is not first on PATH) stops here with what to do instead.
 */
export const MINIMUM_NODE_MAJOR = 22;

/** What to say when `version` (as `process.version` gives it) is too old; undefined when it will do. */
export function nodeTooOld(version: string): string | undefined {
  const major = Number(/^v(\d+)\./.exec(version)?.[1]);
  if (major >= MINIMUM_NODE_MAJOR) return undefined;
  return (
    `This is Node ${version}; the service needs Node ${MINIMUM_NODE_MAJOR} or later (24 LTS). ` +
    'Run it through npm (npm start, npx archive-cli …), which uses the Node 24 that npm install ' +
    'brought into node_modules, or with npm exec -- node <script>.'
  );
}

const tooOld = nodeTooOld(process.version);
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}
