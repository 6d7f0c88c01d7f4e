// The baseline of the ingest benchmark: a Fastify route that does nothing but
// parse the JSON body and answer 201 with a body shaped like the event
// endpoint's. Run as its own process (like the service), it prints its port.
//
//   node bench/lib/noop-server.ts
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
const created = {
  invocation_id: 123456,
  tenant_id: '3f0c9a2e-1b7d-4c55-9a61-0d2f4e8b7c10',
  verdict: 'allow',
  evidence_id: 234567,
};
app.post('/noop', async (_req, reply) => reply.code(201).send(created));
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
console.log(typeof addr === 'object' && addr ? addr.port : 0);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
