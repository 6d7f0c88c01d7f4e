// The console module's face: what other modules may use. Nothing else of console/ is imported from outside it.

export { consoleRoutes } from './routes.ts';
export { repoRoot } from './paths.ts';
