/**
 * What `standing cluster-local` does, loaded only when it runs: start the cluster
 * (../../cluster/local.ts), print where it is and its keys, and stop it all on SIGINT, SIGTERM or
 * SIGHUP (a closed terminal).
 * The cluster's processes run in process groups of their own, so a Ctrl-C at the terminal reaches
 * this process alone, which stops them in order; a signal that arrives while it stops (npm passes
 * the terminal's SIGINT on a second time, an impatient second Ctrl-C) changes nothing, since every
 * step of the stop is bounded.
 */
import { fileURLToPath } from 'node:url';
import { startLocalCluster } from '../../cluster/local.js';
import type { ClusterLocalFlags } from '../commands/cluster-local.js';
import { CommandError } from '../command-error.js';

export async function runLocalCluster(flags: ClusterLocalFlags): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(flags.db)) throw new CommandError(`--db must be a postgres:// URL, got "${flags.db}"`);
  // Held from the start: a signal while the cluster starts stops it once it has started.
  let signalled: () => void = () => undefined;
  const stopAsked = new Promise<void>((resolve) => (signalled = resolve));
  let signals = 0;
  const onSignal = () => {
    signals++;
    signalled();
  };
  // SIGHUP too: the cluster's processes are not in the terminal's group, so a closed terminal reaches this process alone.
  const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const cluster = await startLocalCluster({
    db: flags.db,
    workers: flags.workers,
    gateways: flags.gateways,
    main: fileURLToPath(new URL('../main.js', import.meta.url)),
    logLevel: flags.logLevel,
    ...(flags.natsServer === undefined ? {} : { natsServer: flags.natsServer }),
    ...(flags.port === undefined ? {} : { port: flags.port }),
    ...(flags.natsPort === undefined ? {} : { natsPort: flags.natsPort }),
    ...(flags.schema === undefined ? {} : { schema: flags.schema }),
  }).catch((error: unknown) => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    throw new CommandError(`the local cluster did not start: ${(error as Error).message}`);
  });
  if (signals === 0) {
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
  }
  await stopAsked;
  process.stdout.write('stopping: gateways, then workers, then NATS servers…\n');
  try {
    await cluster.stop();
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
  process.stdout.write('stopped\n');
}
