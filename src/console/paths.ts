import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Where Vite writes the built console; the service serves it at /console. */
export const distDir = join(repoRoot, 'dist', 'console');
export const consoleDir = join(repoRoot, 'console');
