/**
 * The moderator dashboard: rankings per scorer instance, player pages, the live alert feed, player
 * search and a community switcher, all in the URL fragment so a view can be shared.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, takeKeyFromHash } from './api.js';
import { KeyForm } from './components/KeyForm.js';
import { unauthorized, useLoad } from './load.js';
import { href, useRoute } from './route.js';
import { Alerts } from './views/Alerts.js';
import { Player } from './views/Player.js';
import { Rankings } from './views/Rankings.js';
import './styles.css';

takeKeyFromHash();

function App() {
  const route = useRoute();
  const [needKey, setNeedKey] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  unauthorized.handler = (message) => setNeedKey(message);
  const scorers = useLoad((signal) => api.scorers({ signal }), [attempt]);
  const communities = useLoad((signal) => api.communities({ signal }), [attempt]);
  const community = route.query.get('community') ?? communities.data?.communities[0]?.community ?? 'default';
  const [search, setSearch] = useState('');

  useEffect(() => {
    if (route.view === 'home' && scorers.data !== undefined && scorers.data.scorers.length > 0) {
      location.replace(href(['rankings', scorers.data.scorers[0]!.name], { community: route.query.get('community') ?? undefined }));
    }
  }, [route, scorers.data]);

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
  const current = route.view === 'rankings' ? list.find((s) => s.name === route.scorer) : undefined;
  return (
    <>
      <header>
        <a class="brand" href="#/">
          standing
        </a>
        <nav aria-label="views">
          {list.map((s) => (
            <a key={s.name} href={href(['rankings', s.name], { community })} aria-current={current?.name === s.name ? 'page' : undefined}>
              {s.name}
            </a>
          ))}
          <a href={href(['alerts'], { community })} aria-current={route.view === 'alerts' ? 'page' : undefined}>
            alerts
          </a>
        </nav>
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            if (search.trim() !== '') location.hash = href(['player', search.trim()], { community });
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
        {route.view === 'rankings' && current !== undefined && <Rankings scorer={current} community={community} query={route.query} />}
        {route.view === 'rankings' && current === undefined && scorers.data !== undefined && <p class="error">No scorer instance “{route.scorer}”.</p>}
        {route.view === 'player' && <Player player={route.player} community={community} />}
        {route.view === 'alerts' && <Alerts community={community} />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
