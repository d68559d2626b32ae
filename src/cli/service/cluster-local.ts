/**
 * What `standing cluster-local` does, loaded only when it runs: start the cluster
 * (../../cluster/local.ts), print where it is and its keys, and stop it all on SIGINT or SIGTERM.
 */
import { fileURLToPath } from 'node:url';
import { startLocalCluster } from '../../cluster/local.js';
import { CommandError } from '../command-error.js';

export async function runLocalCluster(flags: { db: string; workers: number; gateways: number; natsServer?: string; logLevel: string }): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(flags.db)) throw new CommandError(`--db must be a postgres:// URL, got "${flags.db}"`);
  const cluster = await startLocalCluster({
    db: flags.db,
    workers: flags.workers,
    gateways: flags.gateways,
    main: fileURLToPath(new URL('../main.js', import.meta.url)),
    natsServer: flags.natsServer,
    logLevel: flags.logLevel,
  }).catch((error: unknown) => {
    throw new CommandError(`the local cluster did not start: ${(error as Error).message}`);
  });
  const lines = [
    `standing cluster-local: 3 NATS servers, ${flags.workers} workers, ${flags.gateways} gateways`,
    `  nats:       ${cluster.nats.join(',')}`,
    ...cluster.gateways.map((url) => `  gateway:    ${url}`),
    `  ingest key: ${cluster.ingestKey}`,
    `  admin key:  ${cluster.adminKey}`,
    `  postgres:   schema ${cluster.schema}`,
    `  directory:  ${cluster.dir}`,
    'Ctrl-C stops everything and removes the schema and the directory.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stdout.write('stopping…\n');
  await cluster.stop();
  process.stdout.write('stopped\n');
}
