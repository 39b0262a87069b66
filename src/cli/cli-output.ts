/**
 * What a command writes: its result on stdout, as lines for people on a terminal and as one JSON
 * document otherwise, so that scripts read stdout and nothing else is there; notices, progress and
 * errors go to stderr.
 */
export interface CliOutput {
  /**
   * The command's result: `lines` on a terminal, else `data` as JSON, with `aside` on stderr for
   * whoever watches the terminal (the lines say it themselves).
   */
  result(lines: string[], data: unknown, aside?: string): void;
  /** A notice for people (stderr), never part of the result. */
  notice(text: string): void;
}

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export function cliOutput(stdout: Stream, stderr: Stream): CliOutput {
  return {
    result: (lines, data, aside) => {
      if (stdout.isTTY === true) {
        stdout.write(`${lines.join('\n')}\n`);
        return;
      }
      stdout.write(`${JSON.stringify(data)}\n`);
      if (aside !== undefined) stderr.write(`${aside}\n`);
    },
    notice: (text) => void stderr.write(`${text}\n`),
  };
}

/** A failure the command line explains in its own words: printed as `error: <message>`, exit code 1. */
export class CliError extends Error {}
