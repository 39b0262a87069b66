import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FormatDeclaration } from '../import/formats/format-reader';
import { CliError, CliOutput } from './cli-output';
import { CliImportServices, importCommand, ImportServicesRunner } from './import-command';

type ImportRequest = Parameters<CliImportServices['imports']['import']>[0];

/** Two made-up formats: the command reads whatever the registry declares, and nothing else. */
const FORMATS: readonly FormatDeclaration[] = [
  {
    name: 'lines',
    summary: 'one item a line',
    input: 'documents',
    parameters: [
      { name: 'skip', description: 'lines to skip first' },
      { name: 'keep', description: 'ids to keep (repeatable)', repeatable: true },
    ],
  },
  { name: 'plain', summary: 'nothing to set', input: 'raw', parameters: [] },
];

describe('import command', () => {
  let folder: string;
  let file: string;
  let asked: ImportRequest[];
  const out: CliOutput = { result: () => undefined, notice: () => undefined };
  const progress = { write: () => true };

  /** Runs the import with services that record the request and answer an empty log. */
  const runner: ImportServicesRunner = (_roots, work) => {
    const answer = path.join(folder, 'answer.json');
    writeFileSync(answer, '{}');
    const services = {
      users: { exists: async () => true },
      formats: { endpoint: () => ({ input: 'documents' }) },
      imports: {
        import: async (request: ImportRequest, callbacks: { done(file: string): Promise<void> }) => {
          asked.push(request);
          await callbacks.done(answer);
        },
      },
      errorBody: () => ({ status: 500, error: 'Internal Server Error', details: 'unexpected' }),
    } as unknown as CliImportServices;
    return work(services);
  };

  function run(...args: string[]): Promise<unknown> {
    const command = importCommand(runner, out, progress, () => FORMATS).exitOverride();
    return command.parseAsync(['node', 'import', ...args]);
  }

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'import-command-'));
    file = path.join(folder, 'doc.xml');
    writeFileSync(file, '<doc/>');
    asked = [];
  });

  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('lists each declared format with its summary and its own parameters in the help', () => {
    let help = '';
    const command = importCommand(runner, out, progress, () => FORMATS).configureOutput({
      writeOut: (text) => (help += text),
    });
    command.outputHelp();
    expect(help).toContain('--param <name=value>');
    expect(help).toMatch(/^ {2}lines +one item a line$/m);
    expect(help).toContain('--param skip=…: lines to skip first');
    expect(help).toContain('--param keep=…: ids to keep (repeatable)');
    expect(help).toMatch(/^ {2}plain +nothing to set$/m);
  });

  it("passes the format's parameters into the import's query, a repeated one as a list", async () => {
    await run('lines', file, '--scope', 'r1', '--user', 'ann', '--param', 'skip=2', '--param', 'keep=a');
    await run('lines', file, '--scope', 'r1', '--user', 'ann', '--param', 'keep=a', '--param', 'keep=b=c');
    expect(asked.map((request) => request.query)).toEqual([
      { skip: '2', keep: 'a', scope: 'r1', tag: 'doc.xml' },
      { keep: ['a', 'b=c'], scope: 'r1', tag: 'doc.xml' },
    ]);
  });

  it('refuses a parameter the format does not declare, naming the ones it does', async () => {
    await expect(run('lines', file, '--scope', 'r1', '--user', 'ann', '--param', 'fonds=x')).rejects.toThrow(
      new CliError('--param fonds: not a parameter of the lines format (it takes skip, keep)'),
    );
    await expect(run('plain', file, '--scope', 'r1', '--user', 'ann', '--param', 'skip=1')).rejects.toThrow(
      'not a parameter of the plain format (it takes none)',
    );
    await expect(run('lines', file, '--scope', 'r1', '--user', 'ann', '--param', 'skip')).rejects.toThrow(
      '--param skip: give it as name=value',
    );
    expect(asked).toEqual([]);
  });
});
