/**
 * Issue 25, point 5: a gateway and a worker state at start what an acknowledged event survives,
 * from `cluster.serverSync` and the version the NATS server gives in its INFO, and refuse a
 * declared `always` the server's version cannot honour.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startGateway } from '../../src/app/gateway.js';
import { natsServerVersion } from '../../src/cluster/local-nats.js';
import { startWorker } from '../../src/app/worker.js';
import { ConfigError } from '../../src/errors.js';
import { serviceLogger } from '../../src/http/log-redaction.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterPerFile } from './per-file.js';
import { clusterConfig } from './support.js';

const cluster = clusterPerFile();

/** The `msg` of every line a logger wrote, parsed. */
function captured(): { logger: ReturnType<typeof serviceLogger>; lines(): { msg: string; natsServer?: string; serverSync?: string; replicas?: number }[] } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: serviceLogger('info', sink), lines: () => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { msg: string }) };
}

describe('issue 25: the durability mode, stated at start', () => {
  it('a gateway and a worker log the server version and the sync mode they run in, claiming no more than the declaration', async () => {
    const version = natsServerVersion().replace(/^v/, '');
    const config = clusterConfig(await freshPostgresUrl(), cluster.nats.urls, { partitions: 2 });
    expect(config.cluster.serverSync).toBe('interval');
    const logs = captured();
    cluster.closeAfter(await startGateway(config, logs.logger));
    cluster.closeAfter(await startWorker(config, logs.logger, { id: 'w-durability' }));
    const stated = logs.lines().filter((line) => line.msg.startsWith('durability: '));
    const expected = {
      natsServer: version,
      serverSync: 'interval',
      replicas: 3,
      msg: `durability: nats-server ${version}, sync interval; a batch answered 200 is committed in PostgreSQL and survives every NATS failure; a message the log acknowledged is in the memory of 2 of 3 replicas and on disk within the servers' sync interval (2 min by default): one not yet applied survives process crashes and one server's power loss alone, not power losses of 2 servers within that interval`,
    };
    expect(stated.map(({ natsServer, serverSync, replicas, msg }) => ({ natsServer, serverSync, replicas, msg }))).toEqual([expected, expected]);
  });

  it('refuses "always" declared against a server without sync_interval (nats-server before 2.10.0), naming the key and the version', async (context) => {
    const version = natsServerVersion().replace(/^v/, '');
    if (!/^2\.\d\./.test(version)) context.skip();
    const config = clusterConfig(await freshPostgresUrl(), cluster.nats.urls, { partitions: 2, serverSync: 'always' });
    for (const start of [() => startGateway(config, captured().logger), () => startWorker(config, captured().logger, { id: 'w-always' })]) {
      const refused = await start().then(
        (running) => (cluster.closeAfter(running), undefined),
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as ConfigError).path).toBe('cluster.serverSync');
      expect((refused as ConfigError).reason).toContain(`the NATS server connected to is ${version}, which has no sync_interval setting (it came with 2.10.0)`);
    }
  });
});
