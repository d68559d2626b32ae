/**
 * `standing/testing`: checks for people who write a scorer or an event store of their own, with
 * no test framework in them. The scorer checks are plain functions to feed from any property
 * tester (standing's own tests use fast-check); the store suites (one per port of the store, and
 * all of them at once) declare their cases with the `describe` and `it` they are given.
 */
export { restoresExactly, scorerView } from './restores-exactly.js';
export { restoresCommunityAlone, snapshotsRoundTrip } from './snapshot-properties.js';
export { eventStoreConformance, type ConformanceOptions, type FreshStore, type TestFunctions } from './event-store-conformance.js';
export { eventLogSuite } from './store-conformance/event-log.js';
export { checkpointSuite } from './store-conformance/checkpoints.js';
export { keyStoreSuite } from './store-conformance/keys.js';
export { alertStoreSuite } from './store-conformance/alerts.js';
export { moderationIndexSuite } from './store-conformance/moderation.js';
export { erasureSuite, type ErasableStore } from './store-conformance/erasure.js';
export { storeLifecycleSuite } from './store-conformance/lifecycle.js';
export { claimStoreSuite, reporterIndexSuite, secretStoreSuite, type ClaimingStore } from './store-conformance/access.js';
export type { Closing } from './store-conformance/support.js';
