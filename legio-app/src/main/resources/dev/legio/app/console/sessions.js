// Sessions: the list (as `legio sessions list`), a session's transcript paged backwards, rewind
// (take back the last turn) and fork (a new session continuing from here).
import { html, useState, useEffect } from './vendor/htm-preact-standalone.js';
import { api, describe } from './api.js';
import * as format from './format.js';

const PAGE = 50;

function Transcript({ id, onClose, onChanged }) {
  const [detail, setDetail] = useState(null);
  const [entries, setEntries] = useState([]);
  const [notice, setNotice] = useState(null);
  const load = async (before) => {
    try {
      const d = await api('/sessions/' + id + '?limit=' + PAGE + (before !== undefined ? '&before=' + before : ''));
      setDetail(d);
      setEntries((old) => (before !== undefined ? [...d.entries, ...old] : d.entries));
    } catch (e) {
      setNotice(describe(e));
    }
  };
  useEffect(() => { load(); }, [id]);
  const edit = async (what) => {
    try {
      const r = await api('/sessions/' + id + '/' + what, { method: 'POST', body: what === 'rewind' ? { last: 1 } : {} });
      setNotice(what === 'rewind'
        ? 'Rewound: ' + r.turns_removed + ' turn(s), ' + r.entries_removed + ' entries taken back.'
        : 'Forked into session ' + r.session_id + ' (' + r.owner + ').');
      onChanged();
      load();
    } catch (e) {
      setNotice(describe(e));
    }
  };
  return html`<section class="transcript" aria-labelledby="transcript-title">
    <h3 id="transcript-title">Session ${id}${detail ? ' · ' + detail.owner + ' · ' + detail.total_entries + ' entries' : ''}</h3>
    <div class="actions">
      <button type="button" onClick=${() => edit('rewind')}>Rewind last turn</button>
      <button type="button" onClick=${() => edit('fork')}>Fork</button>
      <button type="button" class="secondary" onClick=${onClose}>Close transcript</button>
    </div>
    <p role="status" class="notice">${notice || ''}</p>
    ${detail && detail.next_before !== null && detail.next_before !== undefined && entries.length > 0 && entries[0].index > 0
      ? html`<button type="button" onClick=${() => load(entries[0].index)}>Older entries</button>`
      : null}
    <ol class="entries" aria-label="Transcript">
      ${entries.map((e) => html`<li key=${e.index} class=${'entry ' + (e.role || e.type)}>
        <span class="entry-role">${e.index} · ${e.role || e.type}</span>
        <pre class="entry-text">${e.text}</pre>
      </li>`)}
    </ol>
  </section>`;
}

export function Sessions() {
  const [sessions, setSessions] = useState(null);
  const [next, setNext] = useState(null);
  const [error, setError] = useState(null);
  const [open, setOpen] = useState(null);
  // The first page, newest first; "More sessions" reads the next one after the last shown
  // (the API's cursor: sessions started meanwhile do not shift it).
  const load = async (cursor) => {
    try {
      const page = await api('/sessions?limit=' + PAGE + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''));
      setSessions((old) => (cursor ? [...(old || []), ...page.sessions] : page.sessions));
      setNext(page.next_cursor);
      setError(null);
    } catch (e) {
      setError(describe(e));
    }
  };
  useEffect(() => { load(); }, []);
  return html`<section class="sessions" aria-labelledby="sessions-title">
    <h2 id="sessions-title">Sessions</h2>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <table>
      <thead><tr><th scope="col">Owner</th><th scope="col">State</th><th scope="col">Messages</th>
        <th scope="col">Tokens in</th><th scope="col">Last active</th><th scope="col">Session</th></tr></thead>
      <tbody>
        ${(sessions || []).map((s) => html`<tr key=${s.session_id}>
          <td>${s.owner}</td>
          <td>${s.state}${s.close_reason ? ' (' + s.close_reason + ')' : ''}</td>
          <td>${s.messages}</td>
          <td>${format.tokens(s.input_tokens)}</td>
          <td>${s.last_active_at ? new Date(s.last_active_at).toLocaleString() : '–'}</td>
          <td><button type="button" class="link" aria-label=${'Open session ' + s.session_id + ' of ' + s.owner}
            onClick=${() => setOpen(s.session_id)}>${s.session_id.slice(0, 8)}</button></td>
        </tr>`)}
      </tbody>
    </table>
    ${sessions && sessions.length === 0 ? html`<p>No sessions yet.</p>` : null}
    ${next ? html`<button type="button" onClick=${() => load(next)}>More sessions</button>` : null}
    ${open ? html`<${Transcript} key=${open} id=${open} onClose=${() => setOpen(null)} onChanged=${() => load()} />` : null}
  </section>`;
}
