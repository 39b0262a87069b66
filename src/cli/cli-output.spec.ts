import { cliOutput } from './cli-output';

describe('cliOutput', () => {
  function streams(isTTY: boolean) {
    const written = { stdout: '', stderr: '' };
    const output = cliOutput(
      { isTTY, write: (text: string) => (written.stdout += text) },
      { write: (text: string) => (written.stderr += text) },
    );
    return { written, output };
  }

  it('writes lines for people on a terminal', () => {
    const { written, output } = streams(true);
    output.result(['Created user mike'], { id: 'mike' }, 'said by the lines');
    output.notice('Opening the store');
    expect(written).toEqual({ stdout: 'Created user mike\n', stderr: 'Opening the store\n' });
  });

  it('writes the result alone, as one JSON document, when stdout is not a terminal', () => {
    const { written, output } = streams(false);
    output.result(['Created user mike'], { id: 'mike', name: 'Mike' }, 'Created user mike');
    output.notice('Opening the store');
    expect(JSON.parse(written.stdout)).toEqual({ id: 'mike', name: 'Mike' });
    expect(written.stderr).toBe('Created user mike\nOpening the store\n');
  });
});
