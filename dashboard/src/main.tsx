/**
 * The moderator dashboard: the attention queue (home for a key with the moderate scope), a case
 * page per player with the moderator's actions, the audit log, the team figures, rankings per
 * scorer instance, player pages, the live alert feed, player search and a community switcher, all
 * in the URL fragment so a view can be shared. What the key may do comes from /v1/me: a key
 * without the moderate scope sees no queue, case actions, audit log or team figures, and its home
 * is the first ranking.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, takeKeyFromHash } from './api.js';
import { KeyForm } from './components/KeyForm.js';
import { findInstance } from './instances.js';
import { unauthorized, useLoad } from './load.js';
import { href, useRoute } from './route.js';
import { Alerts } from './views/Alerts.js';
import { Audit } from './views/Audit.js';
import { Case } from './views/Case.js';
import { Player } from './views/Player.js';
import { Queue } from './views/Queue.js';
import { Rankings } from './views/Rankings.js';
import { Team } from './views/Team.js';
import { Rules } from './views/Rules.js';
import './styles.css';

takeKeyFromHash();

function App() {
  const route = useRoute();
  const [needKey, setNeedKey] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  unauthorized.handler = (message) => setNeedKey(message);
  const scorers = useLoad((signal) => api.scorers({}, { signal }), [attempt]);
  const communities = useLoad((signal) => api.communities({ signal }), [attempt]);
  const community = route.query.get('community') ?? communities.data?.communities[0]?.community ?? 'default';
  const [search, setSearch] = useState('');
  // A service without /v1/me, or a key it refuses there, reads as a key without the moderate scope.
  const me = useLoad((signal) => api.me({ signal }).catch(() => ({ scopes: [] as string[] })), [attempt]);
  const canModerate = me.data !== undefined && me.data.scopes.some((s) => s === 'moderate' || s === 'senior' || s === 'admin');
  const isSenior = me.data !== undefined && me.data.scopes.some((s) => s === 'senior' || s === 'admin');

  useEffect(() => {
    if (route.view === 'home' && canModerate) location.replace(href(['queue'], { community: route.query.get('community') ?? undefined }));
  }, [route, canModerate]);

  if (needKey !== undefined) {
    return (
      <main>
        <KeyForm
          message={needKey}
          onKey={() => {
            setNeedKey(undefined);
            setAttempt((n) => n + 1);
          }}
        />
      </main>
    );
  }

  const list = scorers.data?.scorers ?? [];
  const found = route.view === 'rankings' && scorers.data !== undefined ? findInstance(list, route.scorer) : undefined;
  const current = found !== undefined && 'instance' in found ? found.instance : undefined;
  const playerHref = (player: string, c: string) => href([canModerate ? 'case' : 'player', player], { community: c });
  const first = list[0];
  const home = route.view === 'home' && me.data !== undefined && !canModerate;
  return (
    <>
      <header>
        <a class="brand" href="#/">
          standing
        </a>
        <nav aria-label="views">
          {canModerate && (
            <a href={href(['queue'], { community })} aria-current={route.view === 'queue' ? 'page' : undefined}>
              queue
            </a>
          )}
          {list.map((s) => (
            <a key={s.name} href={href(['rankings', s.name], { community })} aria-current={current?.name === s.name ? 'page' : undefined}>
              {s.name}
            </a>
          ))}
          <a href={href(['alerts'], { community })} aria-current={route.view === 'alerts' ? 'page' : undefined}>
            alerts
          </a>
          {canModerate && (
            <a href={href(['audit'], { community })} aria-current={route.view === 'audit' ? 'page' : undefined}>
              audit
            </a>
          )}
          {canModerate && (
            <a href={href(['team'], { community })} aria-current={route.view === 'team' ? 'page' : undefined}>
              team
            </a>
          )}
          {canModerate && (
            <a href={href(['rules'], { community })} aria-current={route.view === 'rules' ? 'page' : undefined}>
              rules
            </a>
          )}
        </nav>
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            if (search.trim() !== '') location.hash = playerHref(search.trim(), community);
          }}
        >
          <label for="search" class="visually-hidden">
            Player id
          </label>
          <input id="search" type="search" placeholder="player id" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
          <button type="submit">Find</button>
        </form>
        <label class="community">
          <span class="visually-hidden">Community</span>
          <select
            value={community}
            onChange={(e) => {
              const next = (e.target as HTMLSelectElement).value;
              const query = new URLSearchParams(route.query);
              query.set('community', next);
              query.delete('page');
              location.hash = `${location.hash.split('?')[0] || '#/'}?${query}`;
            }}
          >
            {(communities.data?.communities ?? [{ community, sequence: 0 }]).map((c) => (
              <option key={c.community} value={c.community}>
                {c.community}
              </option>
            ))}
          </select>
        </label>
      </header>
      <main>
        {scorers.error !== undefined && <p class="error">{scorers.error}</p>}
        {route.view === 'rankings' && current !== undefined && <Rankings scorer={current} community={community} query={route.query} playerHref={playerHref} />}
        {found !== undefined && 'missing' in found && <p class="error">{found.missing}</p>}
        {home && first !== undefined && (
          <>
            <p class="note" data-testid="queue-needs-moderate">
              The attention queue needs a key with the moderate scope; this key may read, so here is the first ranking.
            </p>
            <Rankings scorer={first} community={community} query={route.query} playerHref={playerHref} />
          </>
        )}
        {route.view === 'queue' && (canModerate ? <Queue community={community} query={route.query} /> : me.data !== undefined && <p class="error">The queue needs a key with the moderate scope.</p>)}
        {route.view === 'case' && <Case player={route.player} community={community} canModerate={canModerate} />}
        {route.view === 'audit' && <Audit community={community} query={route.query} />}
        {route.view === 'team' && <Team community={community} />}
        {route.view === 'player' && <Player player={route.player} community={community} scorers={list} canModerate={canModerate} />}
        {route.view === 'alerts' && <Alerts community={community} playerHref={playerHref} />}
        {route.view === 'rules' && <Rules community={community} senior={isSenior} />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
