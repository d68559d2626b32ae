/**
 * The view lives in the URL fragment, so any view can be shared or bookmarked:
 * `#/queue?community=&page=`, `#/case/<player>?community=`, `#/audit?community=&player=&…`,
 * `#/rankings/<scorer>?community=&sort=&order=&page=`, `#/player/<id>?community=`,
 * `#/alerts?community=`, `#/team?community=`, `#/rules?community=`.
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { view: 'home'; query: URLSearchParams }
  | { view: 'queue'; query: URLSearchParams }
  | { view: 'case'; player: string; query: URLSearchParams }
  | { view: 'audit'; query: URLSearchParams }
  | { view: 'rankings'; scorer: string; query: URLSearchParams }
  | { view: 'player'; player: string; query: URLSearchParams }
  | { view: 'alerts'; query: URLSearchParams }
  | { view: 'team'; query: URLSearchParams }
  | { view: 'rules'; query: URLSearchParams };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter((p) => p !== '').map(decodeURIComponent);
  if (parts[0] === 'rankings' && parts[1] !== undefined) return { view: 'rankings', scorer: parts[1], query };
  if (parts[0] === 'player' && parts[1] !== undefined) return { view: 'player', player: parts[1], query };
  if (parts[0] === 'alerts') return { view: 'alerts', query };
  if (parts[0] === 'queue') return { view: 'queue', query };
  if (parts[0] === 'case' && parts[1] !== undefined) return { view: 'case', player: parts[1], query };
  if (parts[0] === 'audit') return { view: 'audit', query };
  if (parts[0] === 'team') return { view: 'team', query };
  if (parts[0] === 'rules') return { view: 'rules', query };
  return { view: 'home', query };
}

/** `#/a/b?x=1`, leaving out empty query values. */
export function href(path: readonly string[], query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const search = params.size === 0 ? '' : `?${params}`;
  return `#/${path.map(encodeURIComponent).join('/')}${search}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
