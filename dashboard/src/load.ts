/** Loads data for a view, again whenever its inputs change; an older answer never overwrites a newer one. */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.js';

export interface Loaded<T> {
  readonly data?: T;
  readonly error?: string;
  readonly status?: number;
  readonly loading: boolean;
}

/** Set by the app: called when the API answers 401, so it can ask for a key. */
export const unauthorized = { handler: (_message: string) => {} };

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, inputs: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ loading: true });
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    load(controller.signal).then(
      (data) => setState({ data, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 401) unauthorized.handler(error.message);
        setState({ error: (error as Error).message, status: error instanceof ApiError ? error.status : undefined, loading: false });
      },
    );
    return () => controller.abort();
  }, inputs);
  return state;
}
