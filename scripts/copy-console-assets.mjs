// Puts the console's page, style and compiled scripts in one folder, the one the service serves. tsc
// compiles the scripts under dist/console/scripts with the server's type files they import (types
// only, so the browser loads none of those), in the layout of src/.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

const project = path.join(import.meta.dirname, '..');
const from = path.join(project, 'src', 'console', 'client');
const compiled = path.join(project, 'dist', 'console', 'scripts', 'console', 'client');
const to = path.join(project, 'dist', 'console', 'public');
mkdirSync(to, { recursive: true });
for (const name of ['index.html', 'console.css']) copyFileSync(path.join(from, name), path.join(to, name));
for (const name of readdirSync(compiled).filter((file) => file.endsWith('.js'))) {
  copyFileSync(path.join(compiled, name), path.join(to, name));
}
