/**
 * The keys a service verified, kept in memory: a request with a key verified before costs no
 * store lookup and no hash, only a constant-time comparison of its secret with the one that was
 * verified. A revocation takes effect at once, in every process on the store: each request first
 * reads the store's key revision (KeyStore.keyRevision), which a trigger raises in the revoking
 * transaction, whoever revokes (`standing keys revoke`, another service, a tool); when it is not
 * the one the cache was filled under, the cache is emptied and keys are verified against the
 * store again. So a request that begins after a revocation committed is refused, on any service
 * of a cluster. Reading the revision costs a local read on SQLite and one round trip on
 * PostgreSQL, shared by the requests that arrive while one is under way (../util/fresh-read.ts).
 * Only verified keys are kept (an unknown key is looked up every time), at most MAX_CACHED_KEYS.
 */
import { timingSafeEqual } from 'node:crypto';
import type { KeyStore, StoredKey } from '../store/types.js';
import { FreshRead } from '../util/fresh-read.js';
import { KEY_PATTERN, verifyKey } from './keys.js';

/** Verified keys kept at most; one more empties the cache (a service has far fewer keys). */
export const MAX_CACHED_KEYS = 10_000;

export class KeyCache {
  /** By key id: the key and the secret it was verified with. */
  private readonly keys = new Map<string, { readonly key: StoredKey; readonly secret: Buffer }>();
  /** The key revision the cached keys were verified under. */
  private revision: number | undefined;
  private readonly revisions: FreshRead<number>;

  constructor(private readonly store: KeyStore) {
    this.revisions = new FreshRead(() => store.keyRevision());
  }

  /** The stored key `text` names when its secret matches and it is not revoked; otherwise undefined. */
  async verify(text: string): Promise<StoredKey | undefined> {
    const match = KEY_PATTERN.exec(text);
    if (match === null) return undefined;
    const revision = await this.revisions.get();
    if (revision !== this.revision) {
      this.keys.clear();
      this.revision = revision;
    }
    const id = match[1]!;
    const secret = Buffer.from(match[2]!);
    const cached = this.keys.get(id);
    if (cached !== undefined) return timingSafeEqual(cached.secret, secret) ? cached.key : undefined; // KEY_PATTERN: equal lengths
    // Verified after the revision was read: a revocation committed before that read is seen here,
    // and one committed after it raises the revision the next request reads.
    const key = await verifyKey(this.store, text);
    if (key !== undefined && this.revision === revision) {
      if (this.keys.size >= MAX_CACHED_KEYS) this.keys.clear();
      this.keys.set(id, { key, secret });
    }
    return key;
  }
}
