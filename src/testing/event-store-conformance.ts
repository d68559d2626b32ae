/**
 * The conformance suite every event store passes (standing's SQLite and PostgreSQL stores run it
 * in their own tests): the suites of all its ports (./store-conformance/) under one name, over
 * one store that is all of them. A store of one's own that passes it can stand behind the
 * service; one that implements only some ports runs only their suites.
 *
 * The suites bring no test framework: the caller hands them its own `describe` and `it` (vitest,
 * jest, mocha or node:test), and the cases check with node:assert.
 */
import { claimStoreCases, reporterIndexCases, secretStoreCases } from './store-conformance/access.js';
import { alertStoreCases } from './store-conformance/alerts.js';
import { checkpointCases } from './store-conformance/checkpoints.js';
import { erasureCases } from './store-conformance/erasure.js';
import { eventLogCases } from './store-conformance/event-log.js';
import { keyStoreCases } from './store-conformance/keys.js';
import { storeLifecycleCases, type ConformanceOptions } from './store-conformance/lifecycle.js';
import { moderationIndexCases } from './store-conformance/moderation.js';
import { withStoreOf, type FreshStore, type TestFunctions } from './store-conformance/support.js';

export type { ConformanceOptions } from './store-conformance/lifecycle.js';
export type { FreshStore, TestFunctions } from './store-conformance/support.js';

/**
 * Declares the suite `event store conformance: ${name}`, with `test`'s describe and it: one
 * `describe` per port (event log, checkpoint store, key store, alert store, moderation index,
 * erasure, claim store, secret store, reporter index, store lifecycle) holding that port's cases. Every case gets a store of its own from
 * `fresh` and closes it.
 */
export function eventStoreConformance(name: string, fresh: FreshStore, test: TestFunctions, options: ConformanceOptions = {}): void {
  const { describe, it } = test;
  const withStore = withStoreOf(fresh);
  describe(`event store conformance: ${name}`, () => {
    describe('event log', () => eventLogCases(it, withStore));
    describe('checkpoint store', () => checkpointCases(it, withStore));
    describe('key store', () => keyStoreCases(it, withStore));
    describe('alert store', () => alertStoreCases(it, withStore));
    describe('moderation index', () => moderationIndexCases(it, withStore));
    describe('erasure', () => erasureCases(it, withStore));
    describe('claim store', () => claimStoreCases(it, withStore));
    describe('secret store', () => secretStoreCases(it, withStore));
    describe('reporter index', () => reporterIndexCases(it, withStore));
    describe('store lifecycle', () => storeLifecycleCases(options)(it, withStore));
  });
}
