/**
 * The conformance suites of what roles, tenants and the player view keep: claims on cases (taken
 * by one moderator at a time, renewed, released, ended by time, and gone with an erasure of the
 * player), service secrets (made once, the same for every caller ever after), and the reports a
 * player filed, by reporter.
 */
import assert from 'node:assert/strict';
import type { ClaimStore, ErasureStore, EventLog, ReporterIndex, SecretStore } from '../../store/types.js';
import { action } from './fixtures.js';
import { declarePortSuite, type Closing, type FreshStore, type PortCases, type TestFunctions } from './support.js';

/** What the claim suite needs: claims, and an erasure and an event log to erase a claimed player from. */
export type ClaimingStore = ClaimStore & ErasureStore & EventLog & Closing;

const claim = (moderator: string, claimedAt: number, until: number, player = 'bob') => ({ community: 'eu', player, moderator, claimedAt, until });

export const claimStoreCases: PortCases<ClaimingStore> = (it, withStore) => {
  it('gives a case to one moderator at a time: the first claim holds, another is answered with it, the holder renews it keeping when it began', async () => {
    await withStore(async (store) => {
      assert.equal(await store.caseClaim('eu', 'bob', 100), undefined);
      assert.deepEqual(await store.claimCase(claim('mia', 100, 200)), claim('mia', 100, 200));
      assert.deepEqual(await store.claimCase(claim('ole', 150, 400)), claim('mia', 100, 200));
      assert.deepEqual(await store.claimCase(claim('mia', 180, 500)), claim('mia', 100, 500));
      assert.deepEqual(await store.caseClaim('eu', 'bob', 499), claim('mia', 100, 500));
      // Another community, another player: other cases.
      assert.equal(await store.caseClaim('us', 'bob', 150), undefined);
      assert.deepEqual(await store.claimCase(claim('ole', 150, 400, 'cid')), claim('ole', 150, 400, 'cid'));
    });
  });

  it('ends a claim at its end: none in force from then, and anyone may take the case', async () => {
    await withStore(async (store) => {
      await store.claimCase(claim('mia', 100, 200));
      assert.equal(await store.caseClaim('eu', 'bob', 200), undefined);
      assert.deepEqual(await store.claimCase(claim('ole', 200, 300)), claim('ole', 200, 300));
      // An ended claim of the same moderator begins anew.
      assert.deepEqual(await store.claimCase(claim('ole', 300, 350)), claim('ole', 300, 350));
    });
  });

  it("releases a claim for its holder, or anyone's when no moderator is named; an ended one is not released", async () => {
    await withStore(async (store) => {
      await store.claimCase(claim('mia', 100, 200));
      assert.equal(await store.releaseCase('eu', 'bob', 'ole', 150), undefined);
      assert.deepEqual(await store.releaseCase('eu', 'bob', 'mia', 150), claim('mia', 100, 200));
      assert.equal(await store.caseClaim('eu', 'bob', 150), undefined);
      await store.claimCase(claim('mia', 160, 200));
      assert.deepEqual(await store.releaseCase('eu', 'bob', undefined, 170), claim('mia', 160, 200));
      await store.claimCase(claim('mia', 170, 200));
      assert.equal(await store.releaseCase('eu', 'bob', 'mia', 200), undefined);
    });
  });

  it('keeps claims across closing and reopening, and forgets the claims on an erased player', async () => {
    await withStore(async (store, reopen) => {
      await store.append([action('bob', 1, { community: 'eu' }), action('cid', 1, { community: 'eu' })]);
      await store.claimCase(claim('mia', 100, 10_000));
      await store.claimCase(claim('mia', 100, 10_000, 'cid'));
      await store.close();
      const again = await reopen();
      try {
        assert.deepEqual(await again.caseClaim('eu', 'bob', 150), claim('mia', 100, 10_000));
        await again.erase('bob', (e) => (e.type === 'action' && e.player === 'bob' ? null : undefined));
        assert.equal(await again.caseClaim('eu', 'bob', 150), undefined);
        assert.deepEqual(await again.caseClaim('eu', 'cid', 150), claim('mia', 100, 10_000, 'cid'));
      } finally {
        await again.close();
      }
    });
  });
};

export const secretStoreCases: PortCases<SecretStore & Closing> = (it, withStore) => {
  it('makes a secret once: every later call, after a reopening too, gets the first one', async () => {
    await withStore(async (store, reopen) => {
      let made = 0;
      const make = () => `${++made}`.padStart(64, 'a');
      const first = await store.secret('tokens', make);
      assert.equal(first, `${'a'.repeat(63)}1`);
      assert.equal(await store.secret('tokens', make), first);
      assert.equal(await store.secret('other', make), `${'a'.repeat(63)}3`);
      await store.close();
      const again = await reopen();
      try {
        assert.equal(await again.secret('tokens', () => 'b'.repeat(64)), first);
      } finally {
        await again.close();
      }
    });
  });
};

export const reporterIndexCases: PortCases<ReporterIndex & EventLog & Closing> = (it, withStore) => {
  it('lists the reports one reporter filed in one community, newest first, paged by sequence', async () => {
    await withStore(async (store) => {
      const report = (from: string, to: string, community = 'eu') => ({ type: 'report' as const, time: 1, community, from, to });
      await store.append([report('ann', 'bob'), report('cid', 'bob'), report('ann', 'dan'), report('ann', 'bob', 'us'), action('ann', 1, { community: 'eu' }), report('ann', 'eve')]);
      const about = (events: { event: unknown }[]) => events.map((e) => (e.event as { to: string }).to);
      assert.deepEqual(about(await store.reportsBy('eu', 'ann', 10)), ['eve', 'dan', 'bob']);
      const page = await store.reportsBy('eu', 'ann', 2);
      assert.deepEqual(about(page), ['eve', 'dan']);
      assert.deepEqual(about(await store.reportsBy('eu', 'ann', 2, page[1]!.sequence)), ['bob']);
      assert.deepEqual(about(await store.reportsBy('us', 'ann', 10)), ['bob']);
      assert.deepEqual(await store.reportsBy('eu', 'bob', 10), []);
      assert.deepEqual(await store.reportsBy('eu', 'cid', 10), [{ community: 'eu', sequence: 2, event: report('cid', 'bob') }]);
    });
  });
};

export function claimStoreSuite(name: string, fresh: FreshStore<ClaimingStore>, test: TestFunctions): void {
  declarePortSuite('claim store', claimStoreCases, name, fresh, test);
}

export function secretStoreSuite(name: string, fresh: FreshStore<SecretStore & Closing>, test: TestFunctions): void {
  declarePortSuite('secret store', secretStoreCases, name, fresh, test);
}

export function reporterIndexSuite(name: string, fresh: FreshStore<ReporterIndex & EventLog & Closing>, test: TestFunctions): void {
  declarePortSuite('reporter index', reporterIndexCases, name, fresh, test);
}
