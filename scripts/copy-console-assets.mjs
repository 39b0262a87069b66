// Copies the console's page and style beside its compiled scripts (tsc copies no other files).
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const project = path.join(import.meta.dirname, '..');
const from = path.join(project, 'src', 'console', 'client');
const to = path.join(project, 'dist', 'console', 'public');
mkdirSync(to, { recursive: true });
for (const name of ['index.html', 'console.css']) copyFileSync(path.join(from, name), path.join(to, name));
