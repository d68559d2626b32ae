import { ConfigError } from '../errors.js';
import type { ServiceConfig } from '../service/config.js';

/** The cluster's roles keep their state in PostgreSQL: `db` must name it. */
export function requirePostgres(config: Pick<ServiceConfig, 'db'>): string {
  if (!/^postgres(ql)?:\/\//.test(config.db)) {
    throw new ConfigError('configuration', 'db', `must be a postgres:// URL: a cluster's gateways and workers keep their state in PostgreSQL (set it with --db, STANDING_DB or "db" in the configuration file), got "${config.db}"`);
  }
  return config.db;
}
