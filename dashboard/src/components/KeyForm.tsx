/** Asks for a key when the API refuses the dashboard (it keeps the key in this browser): read, or moderate to act. */
import { useState } from 'preact/hooks';
import { storeKey } from '../api.js';

export function KeyForm({ onKey, message }: { onKey: () => void; message: string }) {
  const [key, setKey] = useState('');
  return (
    <form
      class="key-form"
      onSubmit={(e) => {
        e.preventDefault();
        storeKey(key.trim());
        onKey();
      }}
    >
      <h2>A key is needed</h2>
      <p class="muted">{message}</p>
      <label for="key">API key with the read scope</label>
      <input id="key" type="password" autocomplete="off" placeholder="stk_…" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} required />
      <button type="submit">Use this key</button>
      <p class="muted">
        Create one with <code>npx standing keys create --scope read</code> (or <code>--scope moderate</code> to see the queue and act on cases);{' '}
        <code>npm start</code> prints both.
      </p>
    </form>
  );
}
