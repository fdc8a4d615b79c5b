// The operator's console at "/": sign in with an access token, then the conversation, the agents
// panel, sessions, memoria and usage. Everything goes through the public API (api.js).
import { html, render, useState } from './vendor/htm-preact-standalone.js';
import { api, session, describe } from './api.js';
import { SignIn } from './signin.js';
import { useLegion } from './legion.js';
import { Conversation } from './conversation.js';
import { AgentsPanel } from './agents.js';
import { Sessions } from './sessions.js';
import { Memoria } from './memoria.js';
import { Usage } from './usage.js';

const VIEWS = [
  ['conversation', 'Conversation'],
  ['sessions', 'Sessions'],
  ['memoria', 'Memoria'],
  ['usage', 'Usage'],
];

const CONNECTION = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Connection lost; reconnecting…',
  unauthorised: 'Signed out: the token was refused',
};

function Console({ token, onSignOut, onRefused }) {
  const legion = useLegion(token, onRefused);
  const [view, setView] = useState('conversation');
  return html`<div class="console">
    <header class="top">
      <h1>Legio</h1>
      <nav aria-label="Views">
        ${VIEWS.map(
          ([id, label]) => html`<button type="button" aria-pressed=${view === id ? 'true' : 'false'}
            onClick=${() => setView(id)}>${label}</button>`,
        )}
      </nav>
      <p class=${'connection ' + legion.connection} role="status" aria-label="Connection">
        ${CONNECTION[legion.connection] || legion.connection}</p>
      <button type="button" class="secondary" onClick=${onSignOut}>Sign out</button>
    </header>
    <main>
      ${view === 'conversation' ? html`<${Conversation} legion=${legion} />` : null}
      ${view === 'sessions' ? html`<${Sessions} />` : null}
      ${view === 'memoria' ? html`<${Memoria} />` : null}
      ${view === 'usage' ? html`<${Usage} />` : null}
    </main>
    <${AgentsPanel} legion=${legion} />
  </div>`;
}

function App() {
  const [token, setToken] = useState(session.token());
  // Why the token was signed out, when the server refused it (a revoked token, a wrong one kept).
  const [refused, setRefused] = useState(null);
  const signOut = () => {
    session.signOut();
    setRefused(null);
    setToken(null);
  };
  const refuse = (error) => {
    session.signOut();
    setRefused(
      'The access token this tab kept was refused; sign in again. ' +
        (error ? describe(error) : 'Wrong access token: the server refused it.'),
    );
    setToken(null);
  };
  if (!token) {
    return html`<${SignIn} title="Legio console" onSignedIn=${setToken} notice=${refused}
      check=${(t) => api('/status', { token: t })}
      hint="Make an operator token with: legio token create console --role operator" />`;
  }
  return html`<${Console} key=${token} token=${token} onSignOut=${signOut} onRefused=${refuse} />`;
}

// The page's "Loading the Legio console…" goes as the console takes its place (render would keep it
// beside what it draws); loading.js replaces it if the scripts cannot load.
const root = document.getElementById('app');
root.replaceChildren();
render(html`<${App} />`, root);
