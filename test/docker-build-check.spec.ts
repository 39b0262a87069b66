import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ignored, parseStages } from '../scripts/docker-build-check';

describe('the Dockerfile check (npm run docker:check)', () => {
  it('reads the stages and their instructions, continuation lines joined', () => {
    const stages = parseStages(
      'FROM node AS build\n# a comment\nWORKDIR /app\nRUN a \\\n  && b\nFROM node\nCOPY --from=build /app/dist ./dist\n',
    );
    expect(stages).toEqual([
      [
        { keyword: 'FROM', args: 'node AS build' },
        { keyword: 'WORKDIR', args: '/app' },
        { keyword: 'RUN', args: 'a && b' },
      ],
      [
        { keyword: 'FROM', args: 'node' },
        { keyword: 'COPY', args: '--from=build /app/dist ./dist' },
      ],
    ]);
  });

  it("leaves out what .dockerignore's patterns name, folders with all they hold", () => {
    const patterns = ['node_modules', '.env.*', 'bench/out', '*.tsbuildinfo'];
    expect(ignored('node_modules/x/index.js', patterns)).toBe(true);
    expect(ignored('.env.local', patterns)).toBe(true);
    expect(ignored('bench/out/run.json', patterns)).toBe(true);
    expect(ignored('tsconfig.tsbuildinfo', patterns)).toBe(true);
    expect(ignored('src/main.ts', patterns)).toBe(false);
    expect(ignored('bench/run.ts', patterns)).toBe(false);
  });

  it('finds the build stage copying every folder its build reads', () => {
    const [build] = parseStages(readFileSync(path.join(__dirname, '..', 'docker', 'Dockerfile'), 'utf8'));
    const copied = build.filter((step) => step.keyword === 'COPY').map((step) => step.args);
    expect(copied).toEqual(expect.arrayContaining(['scripts ./scripts', 'src ./src']));
  });
});
