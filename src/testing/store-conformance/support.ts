/**
 * What every port's conformance suite shares: the test framework's two functions it is handed,
 * how it gets a fresh store, and how each case opens, reopens and closes it.
 */
import type { EventStore, StoreLifecycle } from '../../store/types.js';

/** The two functions of a test framework the suites need. */
export interface TestFunctions {
  describe(name: string, body: () => void): unknown;
  it(name: string, body: () => Promise<void>): unknown;
}

/** What a suite needs of every store besides the port it checks: closing it. */
export type Closing = Pick<StoreLifecycle, 'close'>;

/**
 * Sets up an empty store (a new file, a new database schema) and answers how to open it. Each
 * call of the answer opens that same store again: the suites close a store and reopen it to
 * check what survives. A port's suite needs only that port (and `close`) of what it opens.
 */
export type FreshStore<S extends Closing = EventStore> = () => Promise<() => S | Promise<S>>;

/** Runs `body` on a store of its own, opened from a fresh one, and closes it afterwards. */
export type WithStore<S> = (body: (store: S, reopen: () => Promise<S>) => Promise<void>) => Promise<void>;

/** The cases of one port, declared with `it`, each case with a store of its own. */
export type PortCases<S> = (it: TestFunctions['it'], withStore: WithStore<S>) => void;

export function withStoreOf<S extends Closing>(fresh: FreshStore<S>): WithStore<S> {
  return async (body) => {
    const open = await fresh();
    const reopen = async () => open();
    const store = await reopen();
    try {
      await body(store, reopen);
    } finally {
      await store.close();
    }
  };
}

/** Declares `cases` as the suite `${port} conformance: ${name}`. */
export function declarePortSuite<S extends Closing>(port: string, cases: PortCases<S>, name: string, fresh: FreshStore<S>, test: TestFunctions): void {
  test.describe(`${port} conformance: ${name}`, () => cases(test.it, withStoreOf(fresh)));
}
