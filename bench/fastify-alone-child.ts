/**
 * Part 6's baseline server: fastify alone, with its own JSON body parser, taking `POST /v1/events`
 * and answering 200 with an outcome the size of the service's, storing nothing. Prints
 * `fastify alone serves at <url>` once it listens on a free port of 127.0.0.1.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
app.post('/v1/events', async (request) => {
  const events = request.body as unknown[];
  return { accepted: events.length, duplicates: 0, sequences: { default: events.length } };
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`fastify alone serves at ${url}`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
