import { existsSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './fixture-paths';

/**
 * Jest's global set-up: the reference's test files must be at `../shared/fixtures`, beside the
 * checkout (README, "Test fixtures"). Without them, one message naming the folder ends the run
 * before any test starts, rather than dozens of files failing each on its own ENOENT.
 */
const NEEDED = ['ehri', 'jsonapi', 'schemas'];

/** The folders of the fixtures that `root` lacks. */
export function missingFolders(root: string): string[] {
  return NEEDED.filter((folder) => !existsSync(path.join(root, folder)));
}

export default function checkFixtures(): void {
  const missing = missingFolders(FIXTURES);
  if (missing.length === 0) return;
  // A thrown error would bury the message under Jest's stack trace; one line and exit 1 say it all.
  process.stderr.write(
    `\nThe reference's test files are missing: no ${missing.join(', ')} in ${FIXTURES}.\n` +
      'Place the shared/fixtures folder beside this checkout (see the README, "Test fixtures").\n',
  );
  process.exit(1);
}
