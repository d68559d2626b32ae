/**
 * A test file's cluster: three nats-server processes (a JetStream cluster, replicas 3) started
 * before its tests; after them, every gateway and worker the tests started is closed (the newest
 * first), the servers are stopped and the tests' PostgreSQL schemas dropped.
 */
import { afterAll, beforeAll } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/app/gateway.js';
import { startWorker, type RunningWorker } from '../../src/app/worker.js';
import { startNatsCluster, type NatsCluster } from '../support/nats-cluster.js';
import { dropPostgresSchemas } from '../support/postgres.js';
import { quiet } from './support.js';

export interface FileCluster {
  /** The servers (after beforeAll). */
  readonly nats: NatsCluster;
  /** Closes `running` after the file's tests; returns it. */
  closeAfter<T extends { close(): Promise<void> }>(running: T): T;
  gateway(config: Parameters<typeof startGateway>[0]): Promise<RunningGateway>;
  worker(config: Parameters<typeof startWorker>[0], id: string): Promise<RunningWorker>;
}

/** How long one gateway or worker may take to close after the tests (ms). */
const CLOSE_WITHIN_MS = 15_000;

/** Whether `r` closed (or failed to) within `ms`. */
async function closedWithin(r: { close(): Promise<void> }, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const closed = r.close().then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

const nameOf = (r: object) => ('id' in r ? `worker ${String(r.id)}` : 'url' in r ? `gateway ${String(r.url)}` : 'a resource');

export function clusterPerFile(): FileCluster {
  let nats: NatsCluster | undefined;
  const running: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    nats = await startNatsCluster(3);
  });
  afterAll(async () => {
    // Each closed within a bound, the newest first; one that does not close is named (and the
    // rest are still closed) rather than the whole hook timing out unexplained.
    const stuck: string[] = [];
    for (const r of running.splice(0).reverse()) if (!(await closedWithin(r, CLOSE_WITHIN_MS))) stuck.push(nameOf(r));
    await nats?.stop();
    await dropPostgresSchemas();
    if (stuck.length > 0) throw new Error(`not closed within ${CLOSE_WITHIN_MS} ms: ${stuck.join(', ')}`);
  });
  const closeAfter = <T extends { close(): Promise<void> }>(r: T): T => {
    running.push(r);
    return r;
  };
  return {
    get nats() {
      if (nats === undefined) throw new Error('the cluster starts in beforeAll');
      return nats;
    },
    closeAfter,
    gateway: async (config) => closeAfter(await startGateway(config, quiet)),
    worker: async (config, id) => closeAfter(await startWorker(config, quiet, { id })),
  };
}
