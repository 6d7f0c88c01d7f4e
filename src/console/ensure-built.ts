// `npm start` runs this first (prestart): the console is built when missing or stale.
import { ensureConsoleBuilt } from './build.ts';

const started = performance.now();
if (ensureConsoleBuilt((m) => console.log(m)))
  console.log(`console built in ${Math.round(performance.now() - started)} ms`);
