/**
 * `standing/testing`: checks for people who write a scorer or an event store of their own, with
 * no test framework in them. The scorer checks are plain functions to feed from any property
 * tester (standing's own tests use fast-check); the store suite declares its cases with the
 * `describe` and `it` it is given.
 */
export { restoresExactly, scorerView } from './restores-exactly.js';
export { restoresCommunityAlone, snapshotsRoundTrip } from './snapshot-properties.js';
export { eventStoreConformance, type ConformanceOptions, type FreshStore, type TestFunctions } from './event-store-conformance.js';
