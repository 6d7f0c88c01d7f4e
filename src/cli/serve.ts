import { loadConfig } from '../config/index.ts';
import { createService } from '../service/index.ts';

export async function serveCommand(_args: string[]): Promise<number> {
  const config = loadConfig();
  const started = performance.now();
  const service = await createService(config);
  const { app } = service;
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await service.close();
    throw err;
  }
  if (config.databaseUrl && config.ledgerSigningKey === undefined) {
    app.log.warn(
      'LEDGER_SIGNING_KEY is not set: this node signs with its own key in DATA_DIR. Nodes sharing one database must share one key (agent-ledger keygen).',
    );
  }
  app.log.info(
    { store: service.ctx.db.kind, startup_ms: Math.round(performance.now() - started) },
    `agent-ledger serving on ${config.host}:${config.port} (${service.ctx.db.kind === 'pglite' ? `embedded store in ${config.dataDir}` : 'PostgreSQL'})`,
  );
  // Graceful shutdown: stop accepting, let in-flight requests finish, close the database.
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => {
        app.log.error('shutdown took over 25 s; exiting');
        process.exit(1);
      }, 25_000);
      force.unref();
      service.close().then(resolve, (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        resolve();
      });
    };
    // `on`, not `once`: a second signal (Ctrl-C reaching both a wrapper and
    // this process) must not kill the process halfway through the shutdown.
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    // Under `npm start` (which execs this process) or the bin/ wrapper, the
    // parent may die without passing a signal on (SIGKILL): the server must
    // not outlive it holding the port.
    if (process.env.npm_lifecycle_event !== undefined || process.env.AGENT_LEDGER_WRAPPED === '1') {
      const parent = process.ppid;
      setInterval(() => {
        if (process.ppid !== parent) stop('parent exited');
      }, 1000).unref();
    }
  });
  return 0;
}
