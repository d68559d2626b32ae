/**
 * What `standing cluster-local` writes in each nats-server's configuration, by the servers'
 * version, and the durability mode a gateway or worker states from the version and
 * `cluster.serverSync`.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { durabilityMode, supportsSyncAlways } from '../../../src/cluster/durability.js';
import { natsServerConfig, natsServerVersion } from '../../../src/cluster/local-nats.js';
import { ConfigError } from '../../../src/errors.js';

const node = { name: 'n1', port: 4222, routePort: 6222, routePorts: [6222, 6223, 6224], storeDir: '/tmp/store/n1' };

describe('issue 25: sync_interval always where the server supports it', () => {
  it('writes sync_interval: always for nats-server 2.10.0 and later, and no sync_interval before (2.9 refuses the key)', () => {
    for (const version of ['v2.10.0', 'v2.10.22', 'v2.12.1', 'v3.0.0', '2.11.0-beta.1']) {
      expect(natsServerConfig(node, version), version).toContain('jetstream { store_dir: "/tmp/store/n1", sync_interval: always }');
    }
    for (const version of ['v2.9.10', 'v2.9.99', 'v2.2.0', 'v1.4.1', 'unknown']) {
      const config = natsServerConfig(node, version);
      expect(config, version).toContain('jetstream { store_dir: "/tmp/store/n1" }');
      expect(config, version).not.toContain('sync_interval');
    }
    expect(natsServerConfig(node, 'v2.9.10').split('\n')).toEqual([
      'server_name: n1',
      'listen: 127.0.0.1:4222',
      'max_payload: 8MB',
      'jetstream { store_dir: "/tmp/store/n1" }',
      'cluster { name: standing-local, listen: 127.0.0.1:6222, routes: [nats://127.0.0.1:6222, nats://127.0.0.1:6223, nats://127.0.0.1:6224] }',
    ]);
  });

  it('reads the version nats-server --version prints', () => {
    const dir = mkdtempSync(join(tmpdir(), 'standing-fake-nats-'));
    try {
      const binary = join(dir, 'nats-server');
      writeFileSync(binary, '#!/bin/sh\necho "nats-server: v2.10.4"\n');
      chmodSync(binary, 0o755);
      expect(natsServerVersion(binary)).toBe('v2.10.4');
      expect(supportsSyncAlways(natsServerVersion(binary))).toBe(true);
      expect(natsServerVersion(join(dir, 'missing'))).toBe('unknown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('states what an acknowledged event survives, and refuses "always" declared for a server without sync_interval', () => {
    expect(durabilityMode('2.9.10', { serverSync: 'interval', replicas: 3 })).toEqual({
      natsServer: '2.9.10',
      serverSync: 'interval',
      replicas: 3,
      survives:
        "a batch answered 200 is committed in PostgreSQL and survives every NATS failure; a message the log acknowledged is in the memory of 2 of 3 replicas and on disk within the servers' sync interval (2 min by default): one not yet applied survives process crashes and one server's power loss alone, not power losses of 2 servers within that interval",
    });
    expect(durabilityMode('2.9.10', { serverSync: 'interval', replicas: 1 }).survives).toBe(
      "a batch answered 200 is committed in PostgreSQL and survives every NATS failure; a message the log acknowledged is on disk within the servers' sync interval (2 min by default): one not yet applied survives process crashes, not a power loss within that interval",
    );
    expect(durabilityMode('2.10.22', { serverSync: 'always', replicas: 3 }).survives).toBe('a batch answered 200 is committed in PostgreSQL and survives every NATS failure; a message the log acknowledged is on disk on 2 of 3 replicas: one not yet applied survives process crashes and power losses');
    const refused = (() => {
      try {
        durabilityMode('2.9.10', { serverSync: 'always', replicas: 3 });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).message).toMatch(/cluster\.serverSync/);
    expect((refused as ConfigError).message).toMatch(/2\.9\.10, which has no sync_interval setting \(it came with 2\.10\.0\)/);
  });
});
