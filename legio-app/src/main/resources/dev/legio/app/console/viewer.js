// The viewer page at "/viewer/{id}": a person with a gateway token for source "viewer" talks to
// the channel session viewer:{id} (POST /api/v1/channels/viewer:{id}/messages), with the tools of
// the role that source maps to. The conversation is kept for this browser session only.
import { html, render, useState, useRef, useEffect } from './vendor/htm-preact-standalone.js';
import { api, session, describe } from './api.js';
import { RichText } from './text.js';
import { SignIn } from './signin.js';

const id = decodeURIComponent(location.pathname.slice('/viewer/'.length));
const channel = 'viewer:' + id;
const STORE = 'legio.viewer.' + id;

function Viewer({ token, onSignOut }) {
  const [entries, setEntries] = useState(() => JSON.parse(sessionStorage.getItem(STORE) || '[]'));
  const [text, setText] = useState('');
  const [name, setName] = useState(sessionStorage.getItem('legio.viewer.name') || '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const log = useRef(null);
  useEffect(() => {
    sessionStorage.setItem(STORE, JSON.stringify(entries));
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [entries]);
  const send = async () => {
    const message = text;
    if (message.trim() === '' || busy) return;
    setText('');
    setError(null);
    setBusy(true);
    setEntries((e) => [...e, { who: name || 'you', text: message }]);
    try {
      sessionStorage.setItem('legio.viewer.name', name);
      const user = name.trim() ? { id: name.trim(), name: name.trim() } : undefined;
      const r = await api('/channels/' + encodeURIComponent(channel) + '/messages', {
        method: 'POST',
        body: user ? { text: message, user } : { text: message },
      });
      setEntries((e) => [...e, { who: channel, role: r.role, text: r.reply.text }]);
    } catch (e) {
      if (e.status === 401) onSignOut();
      setError(describe(e));
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="viewer">
    <header class="top">
      <h1>Legio · ${channel}</h1>
      <button type="button" class="secondary" onClick=${onSignOut}>Sign out</button>
    </header>
    <main>
      <div class="log" role="log" aria-label="Conversation" aria-live="polite" ref=${log} tabindex="0">
        ${entries.map((e, i) => html`<article key=${i} class=${'message' + (e.role ? ' from-agent' : '')}>
          <header><span class="sender">${e.who}</span>${e.role ? html` <span class="description">role ${e.role}</span>` : null}</header>
          <div class="body"><${RichText} text=${e.text} /></div>
        </article>`)}
      </div>
      <form class="composer" onSubmit=${(e) => { e.preventDefault(); send(); }}>
        <label for="viewer-name">Your name</label>
        <input id="viewer-name" value=${name} onInput=${(e) => setName(e.target.value)} autocomplete="name" />
        <label for="message" class="visually-hidden">Message</label>
        <textarea id="message" rows="3" value=${text} onInput=${(e) => setText(e.target.value)}
          onKeyDown=${(e) => { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); } }}></textarea>
        <button type="submit" disabled=${busy}>Send</button>
        <p class="sending" aria-live="polite">${busy ? 'Waiting for the reply…' : ''}</p>
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      </form>
    </main>
  </div>`;
}

function App() {
  const [token, setToken] = useState(session.token());
  const signOut = () => {
    session.signOut();
    setToken(null);
  };
  if (!token) {
    // A gateway token cannot read anything: it is checked by its first message.
    return html`<${SignIn} title=${'Legio viewer · ' + channel} onSignedIn=${setToken}
      check=${async () => {}}
      hint=${'Ask the operator for a token: legio token create viewer --role gateway --sources viewer'} />`;
  }
  return html`<${Viewer} token=${token} onSignOut=${signOut} />`;
}

// The page's loading notice goes as the viewer takes its place (render would keep it beside what it
// draws); loading.js replaces it if the scripts cannot load.
const root = document.getElementById('app');
root.replaceChildren();
render(html`<${App} />`, root);
