/** Real nats-server processes for the cluster tier (the same launcher as `standing cluster-local`). */
export { freePort, NATS_SERVER, startNatsCluster, type NatsCluster, type NatsNode } from '../../src/cluster/local-nats.js';
